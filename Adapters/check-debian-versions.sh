#!/usr/bin/env bash
# Warns (on stderr; it never fails) for each PACKAGE=VERSION argument whose installed Debian
# package is not that version: the adapter and its profile were checked against it, and another
# version may behave otherwise. Every adapter's install.sh calls it from its own folder, after
# install-debian-packages.sh:  ../check-debian-versions.sh libiddawc-dev=1.1.8 ...
set -euo pipefail

for pinned in "$@"; do
  package=${pinned%%=*}
  checked=${pinned#*=}
  version=$(dpkg-query -W -f='${Version}' "$package")
  case "$version" in
    "$checked"*) ;;
    *) echo "Adapters/${PWD##*/}/install.sh: warning: $package is $version; the adapter and its profile were checked against $checked" >&2 ;;
  esac
done
