#!/usr/bin/env bash
# Builds the oauth2-rs adapter (Adapters/rust/bin/oauth2-rs-adapter) and its probes
# (Adapters/rust/bin/probe-*) offline with Debian's Rust toolchain (/usr/bin/cargo, /usr/bin/rustc:
# .cargo/config.toml names both the compiler and the vendored registry, /usr/share/cargo/registry)
# against Debian's librust-oauth2-dev 4.3.0 and the crates it depends on. Installs the Debian
# packages (as root, or through sudo) when they are missing.
# Does nothing when the sources, the lock file and the installed crates are those of the last build.
set -euo pipefail
cd "$(dirname "$0")"

packages=(cargo rustc librust-oauth2-dev librust-reqwest-dev librust-serde-json-dev librust-chrono-dev
  librust-url-dev libssl-dev pkg-config)
../install-debian-packages.sh "${packages[@]}"

../check-debian-versions.sh librust-oauth2-dev=4.3.0

# The build is skipped when nothing it depends on changed: the adapter's and probes' sources,
# Cargo.toml, Cargo.lock, .cargo/config.toml, and the versions of the toolchain and crates.
hash=$( {
  find src probes Cargo.toml Cargo.lock .cargo/config.toml -type f -print0 2>/dev/null | sort -z | xargs -0 sha256sum
  /usr/bin/rustc --version
  dpkg-query -W -f='${Package} ${Version}\n' 'librust-*' cargo rustc
} | sha256sum | cut -d' ' -f1)
binaries=(bin/oauth2-rs-adapter)
for probe in probes/*.rs; do
  [ -e "$probe" ] && binaries+=("bin/probe-$(basename "$probe" .rs | tr _ -)")
done
up_to_date=yes
for binary in "${binaries[@]}"; do [ -x "$binary" ] || up_to_date=no; done
if [ "$up_to_date" = yes ] && [ -f .build-hash ] && [ "$(cat .build-hash)" = "$hash" ]; then
  exit 0
fi

echo "Adapters/rust/install.sh: building ${binaries[*]} with $(/usr/bin/rustc --version)" >&2
# Debian's cargo, never a rustup one earlier on PATH; offline, against the vendored registry.
/usr/bin/cargo build --release --offline --bins >&2
mkdir -p bin
for binary in "${binaries[@]}"; do
  cp "target/release/$(basename "$binary")" "$binary"
done
echo "$hash" > .build-hash
