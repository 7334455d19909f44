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

../check-debian-versions.sh ruby-oauth2=1.4.4 ruby-rack-oauth2=1.21 ruby-openid-connect=1.2.0
