#!/usr/bin/env bash
# Builds the iddawc adapter (Adapters/c/bin/iddawc-adapter) and its probes (Adapters/c/bin/probes/)
# with gcc against Debian's packages: libiddawc-dev (iddawc 1.1.8, with Ulfius, Rhonabwy, Orcania
# and Yder), libjansson-dev, and faketime for the profile's virtual clock. Installs those packages
# (as root, or through sudo) when they are missing.
# make rebuilds nothing when every binary is newer than its sources.
set -euo pipefail
cd "$(dirname "$0")"

packages=(gcc make pkg-config libc6-dev libiddawc-dev libjansson-dev libgnutls28-dev faketime)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Adapters/c/install.sh: installing ${missing[*]} (Debian)" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

version=$(dpkg-query -W -f='${Version}' libiddawc-dev)
case "$version" in
  1.1.8*) ;;
  *) echo "Adapters/c/install.sh: warning: libiddawc-dev is $version; the adapter and its profile were checked against 1.1.8" >&2 ;;
esac

make --no-print-directory -s all >&2
