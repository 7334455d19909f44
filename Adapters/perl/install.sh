#!/usr/bin/env bash
# Installs what the LWP::Authen::OAuth2 adapter and its probes need from Debian, when missing:
# liblwp-authen-oauth2-perl (0.20) with LWP::UserAgent, LWP::Protocol::https for the TLS
# scenarios, and HTTP::Daemon, on which each probe serves its throwaway provider. Perl and
# JSON::PP come with perl itself. Does nothing when all is installed.
set -euo pipefail
cd "$(dirname "$0")"

packages=(liblwp-authen-oauth2-perl liblwp-protocol-https-perl libhttp-daemon-perl)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Adapters/perl/install.sh: installing ${missing[*]} (Debian)" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  # Bounded, as scripts/test bounds its own installs: a mirror that stalls costs minutes, not a hung job.
  timeout 300 "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive timeout 600 "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

version=$(dpkg-query -W -f='${Version}' liblwp-authen-oauth2-perl)
case "$version" in
  0.20*) ;;
  *) echo "Adapters/perl/install.sh: warning: liblwp-authen-oauth2-perl is $version; the adapter and its profile were checked against 0.20" >&2 ;;
esac
