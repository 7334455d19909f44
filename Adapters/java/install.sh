#!/usr/bin/env bash
# Installs what the google-oauth-client adapter needs from Debian (a JDK, the library and the
# jars it loads) when missing, and compiles the adapter into Adapters/java/build/, with the
# launcher build/run that google-oauth-client.yaml starts. Does nothing when all is in place and
# the build is newer than the sources.
set -euo pipefail
cd "$(dirname "$0")"

JARS=/usr/share/java
# The library, google-http-client with its Gson factory (the JSON factory the adapter gives the
# library; Gson also reads the protocol's lines), and what they load at run time: Guava, and
# OpenCensus (google-http-client traces every request) with the gRPC Context it depends on.
CLASSPATH_JARS=(
  google-oauth-client.jar google-http-client.jar google-http-client-gson.jar gson.jar guava.jar
  opencensus-api.jar opencensus-contrib-http-util.jar grpc-context.jar
)

missing_packages=()
command -v javac >/dev/null 2>&1 || missing_packages+=(default-jdk-headless)
for jar in "${CLASSPATH_JARS[@]}"; do
  if [ ! -e "$JARS/$jar" ]; then
    # libgoogle-oauth-client-java depends on all the others (http-client, gson, guava, opencensus, grpc).
    missing_packages+=(libgoogle-oauth-client-java)
    break
  fi
done
if [ ${#missing_packages[@]} -gt 0 ]; then
  ../install-debian-packages.sh "${missing_packages[@]}"
fi

classpath=""
for jar in "${CLASSPATH_JARS[@]}"; do classpath="$classpath:$JARS/$jar"; done
classpath="${classpath#:}"

# Up to date: the launcher exists and no source (nor this script) is newer than it.
if [ -x build/run ] && [ -z "$(find src probes install.sh -newer build/run -print -quit)" ]; then
  exit 0
fi

echo "Adapters/java/install.sh: compiling the adapter into Adapters/java/build" >&2
rm -rf build
mkdir -p build/classes
javac -encoding UTF-8 --release 17 -Xlint:all,-serial -d build/classes -cp "$classpath" $(find src -name '*.java')

# The probes (probes/*.java, one standalone program each, no adapter code), and their launcher:
# build/probe CLASS runs one of them against the library's jars.
mkdir -p build/probes
javac -encoding UTF-8 --release 17 -Xlint:all,-serial -d build/probes -cp "$classpath" probes/*.java
# The HTTPS probe's certificate for 127.0.0.1 (probes/Redirects.java), made offline.
keytool -genkeypair -keystore build/probes/tls.p12 -storetype PKCS12 -storepass probe-pass -alias probe \
  -keyalg RSA -keysize 2048 -dname CN=127.0.0.1 -ext san=ip:127.0.0.1 -validity 3650 >/dev/null 2>&1
cat > build/probe <<LAUNCHER
#!/bin/sh
# Written by Adapters/java/install.sh; runs the probe named by its first argument.
exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmx128m -cp "\$(dirname "\$0")/probes:$classpath" "\$@"
LAUNCHER
chmod +x build/probe

# The launcher. One JVM serves a whole run, so start-up is paid once; the small heap and the
# client compiler keep that start short.
cat > build/run.tmp <<LAUNCHER
#!/bin/sh
# Written by Adapters/java/install.sh; starts the google-oauth-client adapter.
exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k -Xmx256m \\
  -cp "\$(dirname "\$0")/classes:$classpath" conformance.Main "\$@"
LAUNCHER
chmod +x build/run.tmp
mv build/run.tmp build/run
