#!/usr/bin/env bash
# Builds the golang.org/x/oauth2 adapter (Adapters/go/bin/x-oauth2-adapter) offline, in GOPATH
# mode, against Debian's packaged sources in /usr/share/gocode: golang-go,
# golang-golang-x-oauth2-dev (0.3.0) and, for OpenID Connect, golang-github-coreos-go-oidc-dev
# (go-oidc 2.1.0) with golang-gopkg-square-go-jose.v2-dev. Installs those packages (as root, or
# through sudo) when they are missing.
# Does nothing when the binary is newer than every source it is built from.
set -euo pipefail
cd "$(dirname "$0")"

packages=(golang-go golang-golang-x-oauth2-dev golang-github-coreos-go-oidc-dev golang-gopkg-square-go-jose.v2-dev)
../install-debian-packages.sh "${packages[@]}"

../check-debian-versions.sh golang-golang-x-oauth2-dev=0.3.0 golang-github-coreos-go-oidc-dev=2.1.0

binary=bin/x-oauth2-adapter
libraries=(/usr/share/gocode/src/golang.org/x/oauth2 /usr/share/gocode/src/github.com/coreos/go-oidc
  /usr/share/gocode/src/gopkg.in/square/go-jose.v2)
probes=(probes/*/)
if [ -x "$binary" ] && [ -z "$(find ./*.go probes "${libraries[@]}" -newer "$binary" -name '*.go' -print -quit)" ]; then
  exit 0
fi

echo "Adapters/go/install.sh: building $binary" >&2
export GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$PWD/.gocache" GOFLAGS= CGO_ENABLED=0
# The adapter's own unit test (the clock-frame conversion every verdict rests on), before the
# binary is put in place, so a failing conversion never reaches a suite run.
go test . >&2
# The probes (probes/NAME/, one program each: docs' probe rule) become bin/probe-NAME, built
# before the adapter so that the adapter's binary stays the newest file. A probe of several
# cases is built in .build-src/ with probes/probe.go beside its own files (its cases' table, main
# and checks, as Adapters/go-cli-oauth builds this folder's shared files); a probe with its own
# main (one claim) is built as it is.
mkdir -p bin
for probe in "${probes[@]}"; do
  name=$(basename "$probe")
  output="$PWD/bin/probe-${name//_/-}"
  if grep -q '^func main()' "$probe"*.go; then
    go build -o "$output" "./$probe"
    continue
  fi
  rm -rf ".build-src/$name"
  mkdir -p ".build-src/$name"
  cp "$probe"*.go probes/probe.go ".build-src/$name/"
  (cd ".build-src/$name" && go build -o "$output" .)
done
go build -o "$binary" .
