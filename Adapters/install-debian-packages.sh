#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are not installed yet, as root or through
# sudo, and does nothing when all are. Every adapter's install.sh calls it for what its library
# and build need:  "$(dirname "$0")/../install-debian-packages.sh" PACKAGE...
# Bounded, as scripts/test bounds its own installs: a mirror that stalls costs minutes, not a hung
# job. Quiet: apt's output goes to stderr, and only when there is something to install.
set -euo pipefail

missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -gt 0 ] || exit 0

echo "Adapters/install-debian-packages.sh: installing ${missing[*]} (Debian)" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
timeout 300 "${sudo_cmd[@]}" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive timeout 600 "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
