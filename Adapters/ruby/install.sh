#!/usr/bin/env bash
# Installs what the Ruby adapters need from Debian, when missing: Ruby itself, the oauth2 gem
# 1.4.4 (ruby-oauth2, on Faraday 1.1.0), and rack-oauth2 1.21 with openid_connect 1.2
# (ruby-rack-oauth2, ruby-openid-connect) for the OpenID Connect relying party. The probes use
# WEBrick, which Ruby 3.1 ships as a gem of its own (ruby-webrick). Nothing is built.
# Does nothing when all is installed.
set -euo pipefail
cd "$(dirname "$0")"

packages=(ruby ruby-oauth2 ruby-rack-oauth2 ruby-openid-connect ruby-webrick)
../install-debian-packages.sh "${packages[@]}"

check_version() { # package, the version the adapter and its profile were checked against
  local version
  version=$(dpkg-query -W -f='${Version}' "$1")
  case "$version" in
    "$2"*) ;;
    *) echo "Adapters/ruby/install.sh: warning: $1 is $version; the adapter and its profile were checked against $2" >&2 ;;
  esac
}
check_version ruby-oauth2 1.4.4
check_version ruby-rack-oauth2 1.21
check_version ruby-openid-connect 1.2.0
