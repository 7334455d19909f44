#!/usr/bin/env bash
# Installs what the LWP::Authen::OAuth2 adapter and its probes need from Debian, when missing:
# liblwp-authen-oauth2-perl (0.20) with LWP::UserAgent, LWP::Protocol::https for the TLS
# scenarios, and HTTP::Daemon, on which each probe serves its throwaway provider. Perl and
# JSON::PP come with perl itself. Does nothing when all is installed.
set -euo pipefail
cd "$(dirname "$0")"

packages=(liblwp-authen-oauth2-perl liblwp-protocol-https-perl libhttp-daemon-perl)
../install-debian-packages.sh "${packages[@]}"

../check-debian-versions.sh liblwp-authen-oauth2-perl=0.20
