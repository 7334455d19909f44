#!/usr/bin/env bash
# Builds the iddawc adapter (Adapters/c/bin/iddawc-adapter) and its probes (Adapters/c/bin/probes/)
# with gcc against Debian's packages: libiddawc-dev (iddawc 1.1.8, with Ulfius, Rhonabwy, Orcania
# and Yder), libjansson-dev, and faketime for the profile's virtual clock. Installs those packages
# (as root, or through sudo) when they are missing.
# make rebuilds nothing when every binary is newer than its sources.
set -euo pipefail
cd "$(dirname "$0")"

packages=(gcc make pkg-config libc6-dev libiddawc-dev libjansson-dev libgnutls28-dev faketime)
../install-debian-packages.sh "${packages[@]}"

../check-debian-versions.sh libiddawc-dev=1.1.8

make --no-print-directory -s all >&2
