#!/usr/bin/env bash
# Drives the mock provider's token endpoint and protected resource with wrk over loopback, and
# nginx serving a static token JSON in the same run, then prints requests/s, p99 latency and the
# provider/nginx ratio, and the CPU time the server spent per request (user + system, all its
# threads): on a machine shared with other work, rates swing from run to run, CPU per request much
# less. Targets (issue 3): provider ≥ 50% of nginx's rate, p99 < 5 ms at 50
# connections on a 2-core machine.
#
# OpenID Connect: a second provider (Benchmarks/es256-id-tokens.yaml) signs an ES256 ID token into
# every token response of a sign-in; wrk refreshes that sign-in's grant, so each answer costs one
# P-256 signature, and nginx serves one such answer, ID token included, as static JSON beside it.
#
# A third server runs beside them: `nio-floor` (Benchmarks/NIOFloor), SwiftNIO with the
# provider's pipeline answering the same bytes and doing nothing else. Its rate is the most a
# NIO-based provider could reach here; the provider's distance from it is its own work.
#
#   Benchmarks/provider-vs-nginx.sh [seconds-per-run] [connections] [rounds]
#
# With BASELINE=path/to/conformance (an earlier release build, copied aside), that binary's
# provider is measured too in every round, beside this one: a change's before and after side by
# side in one run, each against the same nginx.
#
# Each round measures nginx, the NIO floor, the token endpoint and the resource, one after the other;
# the summary gives the median over the rounds of each figure and of each round's ratio, so a
# burst of other work on the machine moves one round, not the result.
#
# Installs wrk and nginx from Debian when missing. Builds `conformance` and `nio-floor` in release mode.
# Everything binds 127.0.0.1; every run is bounded by its duration.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10}"
connections="${2:-50}"
rounds="${3:-3}"
threads=2

need() { command -v "$1" >/dev/null 2>&1; }
if ! need wrk || ! need nginx; then
  sudo_if_needed=""; [ "$(id -u)" -eq 0 ] || sudo_if_needed="sudo"
  $sudo_if_needed apt-get update -qq
  $sudo_if_needed apt-get install -y -qq wrk nginx-light >/dev/null
fi

build_log=$(mktemp)
for product in conformance nio-floor; do
  if ! swift build -c release --product "$product" --scratch-path .build-release >"$build_log" 2>&1; then
    cat "$build_log" >&2
    exit 1
  fi
done
rm -f "$build_log"
conformance=".build-release/release/conformance"

work=$(mktemp -d)
provider_pid="" baseline_pid="" nginx_pid="" floor_pid="" oidc_pid="" baseline_oidc_pid=""
cleanup() {
  [ -n "$provider_pid" ] && kill "$provider_pid" 2>/dev/null || true
  [ -n "$oidc_pid" ] && kill "$oidc_pid" 2>/dev/null || true
  [ -n "$baseline_oidc_pid" ] && kill "$baseline_oidc_pid" 2>/dev/null || true
  [ -n "$baseline_pid" ] && kill "$baseline_pid" 2>/dev/null || true
  [ -n "$floor_pid" ] && kill "$floor_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# A provider from the given binary, its log to a file (it logs every request, buffered); sets
# served_port and served_pid.
serve() {
  served_port=$(free_port)
  "$1" serve --port "$served_port" --journal-capacity 10000 --token-capacity 1000000 "${@:3}" >"$work/$2.log" 2>&1 &
  served_pid=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$served_port/.well-known/oauth-authorization-server" >/dev/null && break; sleep 0.1; done
}
serve "$conformance" provider
provider_port=$served_port provider_pid=$served_pid
serve "$conformance" oidc --scenario Benchmarks/es256-id-tokens.yaml
oidc_port=$served_port oidc_pid=$served_pid
if [ -n "${BASELINE:-}" ]; then
  serve "$BASELINE" baseline
  baseline_port=$served_port baseline_pid=$served_pid
  serve "$BASELINE" baseline-oidc --scenario Benchmarks/es256-id-tokens.yaml
  baseline_oidc_port=$served_port baseline_oidc_pid=$served_pid
fi

basic=$(printf 'conformance-client:conformance-secret' | base64)
token_json=$(curl -sf -u conformance-client:conformance-secret -d grant_type=client_credentials "http://127.0.0.1:$provider_port/token")
# A token issued just before each resource run: the token runs issue more tokens than the
# provider's ledger keeps, and a forgotten token would be refused (and counted as non-2xx).
fresh_access_token() {
  curl -sf -u conformance-client:conformance-secret -d grant_type=client_credentials "http://127.0.0.1:$1/token" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])'
}

# A sign-in's refresh token at the OpenID Connect provider: the authorization request with scope
# openid (the provider's user consents at once), then the code's redemption.
fresh_openid_refresh_token() {
  local location code
  location=$(curl -sf -o /dev/null -w '%{redirect_url}' \
    "http://127.0.0.1:$1/authorize?response_type=code&client_id=conformance-client&redirect_uri=http://127.0.0.1/callback&scope=openid&nonce=benchmark&state=benchmark")
  code=$(python3 -c 'import sys, urllib.parse as u; print(u.parse_qs(u.urlparse(sys.argv[1]).query)["code"][0])' "$location")
  curl -sf -u conformance-client:conformance-secret \
    -d "grant_type=authorization_code&code=$code&redirect_uri=http://127.0.0.1/callback" "http://127.0.0.1:$1/token" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["refresh_token"])'
}
id_token_json=$(curl -sf -u conformance-client:conformance-secret \
  -d "grant_type=refresh_token&refresh_token=$(fresh_openid_refresh_token "$oidc_port")" "http://127.0.0.1:$oidc_port/token")

# nginx answering every request to /token with the same JSON the provider sends.
nginx_port=$(free_port)
mkdir -p "$work/nginx"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx;
  proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server {
    listen 127.0.0.1:$nginx_port;
    location / { default_type application/json; return 200 '$token_json'; }
    location /id-token { default_type application/json; return 200 '$id_token_json'; }
  }
}
CONF
nginx -c "$work/nginx/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$nginx_port/token" >/dev/null && break; sleep 0.1; done
nginx_workers=$(pgrep -P "$nginx_pid" | paste -sd, -)

# The NIO floor, answering with the same JSON.
floor_port=$(free_port)
.build-release/release/nio-floor "$floor_port" "$token_json" &
floor_pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$floor_port/token" >/dev/null && break; sleep 0.1; done

# A wrk script that POSTs this form to the token endpoint with the client's Basic credentials.
token_request_script() {
  cat >"$1" <<LUA
wrk.method = "POST"
wrk.body = "$2"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Authorization"] = "Basic $basic"
LUA
}
token_request_script "$work/token.lua" "grant_type=client_credentials"

# A refresh of the sign-in's grant: set per round, since a round issues more tokens than the
# ledger would otherwise keep.
refresh_script() {
  token_request_script "$work/refresh.lua" "grant_type=refresh_token&refresh_token=$1"
}

# CPU clock ticks (user + system) the processes given by id have used so far.
cpu_ticks() {
  local total=0 pid
  for pid in "$@"; do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done
  echo "$total"
}

# Prints "requests/s p99-ms non-2xx server-µs-per-request" for one wrk run against the server
# whose process ids (comma-separated) come first.
measure() {
  local server_pids=${1//,/ } output before after
  shift
  # shellcheck disable=SC2086
  before=$(cpu_ticks $server_pids)
  output=$(wrk -t"$threads" -c"$connections" -d"${duration}s" --latency "$@")
  # shellcheck disable=SC2086
  after=$(cpu_ticks $server_pids)
  python3 - "$output" "$((after - before))" "$(getconf CLK_TCK)" <<'PY'
import re, sys
text, ticks, ticks_per_second = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
value, unit = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", text, re.M).groups()
p99_ms = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
requests = int(re.search(r"(\d+) requests in", text).group(1))
print(f"{rate:.0f} {p99_ms:.2f} {errors.group(1) if errors else 0} {ticks / ticks_per_second / requests * 1e6:.1f}")
PY
}

echo "wrk: $threads threads, $connections connections, ${duration}s per run, loopback; $(nproc) cores; $rounds rounds"
results="$work/results"
for round in $(seq "$rounds"); do
  echo "round $round (requests/s, p99 ms, non-2xx, server µs/request):"
  echo "  nginx    $(measure "$nginx_workers" -s "$work/token.lua" "http://127.0.0.1:$nginx_port/token" | tee -a "$results.nginx")"
  echo "  floor    $(measure "$floor_pid" -s "$work/token.lua" "http://127.0.0.1:$floor_port/token" | tee -a "$results.floor")"
  echo "  token    $(measure "$provider_pid" -s "$work/token.lua" "http://127.0.0.1:$provider_port/token" | tee -a "$results.token")"
  echo "  resource $(measure "$provider_pid" -H "Authorization: Bearer $(fresh_access_token "$provider_port")" "http://127.0.0.1:$provider_port/resource" | tee -a "$results.resource")"
  echo "  nginx, ID token JSON $(measure "$nginx_workers" "http://127.0.0.1:$nginx_port/id-token" | tee -a "$results.nginx-id")"
  refresh_script "$(fresh_openid_refresh_token "$oidc_port")"
  echo "  ES256 ID tokens      $(measure "$oidc_pid" -s "$work/refresh.lua" "http://127.0.0.1:$oidc_port/token" | tee -a "$results.id-token")"
  if [ -n "$baseline_pid" ]; then
    echo "  baseline token    $(measure "$baseline_pid" -s "$work/token.lua" "http://127.0.0.1:$baseline_port/token" | tee -a "$results.baseline-token")"
    echo "  baseline resource $(measure "$baseline_pid" -H "Authorization: Bearer $(fresh_access_token "$baseline_port")" "http://127.0.0.1:$baseline_port/resource" | tee -a "$results.baseline-resource")"
    refresh_script "$(fresh_openid_refresh_token "$baseline_oidc_port")"
    echo "  baseline ES256 ID tokens $(measure "$baseline_oidc_pid" -s "$work/refresh.lua" "http://127.0.0.1:$baseline_oidc_port/token" | tee -a "$results.baseline-id-token")"
  fi
done

# The medians: each column of "requests/s p99-ms non-2xx µs/request", and each round's rate ratio.
python3 - "$results" <<'PY'
import os, statistics, sys
base = sys.argv[1]
labels = {
    "nginx": "nginx, static token JSON", "floor": "NIO floor, same JSON",
    "token": "provider, POST /token", "resource": "provider, GET /resource",
    "baseline-token": "baseline, POST /token", "baseline-resource": "baseline, GET /resource",
    "nginx-id": "nginx, static JSON with ID token", "id-token": "provider, refresh + ES256 ID token",
    "baseline-id-token": "baseline, refresh + ES256 ID token",
}
names = [name for name in labels if os.path.exists(f"{base}.{name}")]
rows = {name: [list(map(float, line.split())) for line in open(f"{base}.{name}")] for name in names}
def median(name, column): return statistics.median(row[column] for row in rows[name])
# The ID token run is set against nginx serving the same answer, ID token included.
def ratio(name):
    against = rows["nginx-id" if name.endswith("id-token") else "nginx"]
    return statistics.median(row[0] / n[0] for row, n in zip(rows[name], against))
print()
print(f"{'median of ' + str(len(rows['nginx'])) + ' rounds':34} {'requests/s':>12} {'p99 ms':>10} {'non-2xx':>8} {'vs nginx':>14} {'server µs/request':>18}")
for name in names:
    label = labels[name]
    share = 1.0 if name in ("nginx", "nginx-id") else ratio(name)
    errors = sum(int(row[2]) for row in rows[name])
    print(f"{label:34} {median(name, 0):12.0f} {median(name, 1):10.2f} {errors:8d} {share:14.2f} {median(name, 3):18.1f}")
    if errors:
        print(f"  warning: {label} had {errors} answers other than 2xx; its figures do not measure successful requests")
PY
