#!/usr/bin/env bash
# Builds the github.com/cli/oauth adapter (Adapters/go-cli-oauth/bin/cli-oauth-adapter) and its
# probe (bin/probe-cli-oauth) offline, in GOPATH mode, against Debian's packaged sources in
# /usr/share/gocode: golang-go and golang-github-cli-oauth-dev (1.0.1, which brings
# golang-github-cli-browser-dev). Installs them (as root, or through sudo) when they are missing.
# The adapter shares protocol.go, serve.go, httpclient.go, resource.go and errortypes.go with
# Adapters/go, and its probe shares Adapters/go's probes/probe.go: the build puts them beside this
# adapter's (and probe's) own files in .build-src/ (a release carries no symbolic link).
# Does nothing when the binaries are newer than every source they are built from.
set -euo pipefail
cd "$(dirname "$0")"

packages=(golang-go golang-github-cli-oauth-dev)
../install-debian-packages.sh "${packages[@]}"

../check-debian-versions.sh golang-github-cli-oauth-dev=1.0.1

binary=bin/cli-oauth-adapter
library=/usr/share/gocode/src/github.com/cli/oauth
shared=(../go/protocol.go ../go/serve.go ../go/httpclient.go ../go/resource.go ../go/errortypes.go)
shared_probe=../go/probes/probe.go
probes=(probes/*/)
if [ -x "$binary" ] && [ -z "$(find -L ./*.go "${shared[@]}" "$shared_probe" "${probes[@]}" "$library" -newer "$binary" -name '*.go' -print -quit)" ]; then
  exit 0
fi

echo "Adapters/go-cli-oauth/install.sh: building $binary" >&2
export GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$PWD/.gocache" GOFLAGS= CGO_ENABLED=0
rm -rf .build-src
mkdir -p .build-src bin
cp ./*.go "${shared[@]}" .build-src/
(cd .build-src && go vet . >&2)
# The probes (probes/NAME/main.go, one program each: docs' probe rule) become bin/probe-NAME,
# built before the adapter so that the adapter's binary stays the newest file.
# Adapters/go's probes/probe.go (what every probe shares) goes beside each probe's own files.
for probe in "${probes[@]}"; do
  name=$(basename "$probe")
  output="$PWD/bin/probe-${name//_/-}"
  mkdir -p ".build-src/probes/$name"
  cp "$probe"*.go "$shared_probe" ".build-src/probes/$name/"
  (cd ".build-src/probes/$name" && go build -o "$output" .)
done
(cd .build-src && go build -o "../$binary" .)
