#!/usr/bin/env bash
# Peak memory of `conformance serve` while clients send what its stores keep, one store at a time
# (issue #30): for each kind a fresh provider on loopback, a bounded stream of requests, then the
# provider's peak resident set (VmHWM) before and after:
#   journal     unauthenticated 1 MB POSTs to /token (refused, but journaled)
#   assertions  client_secret_jwt assertions with a 700 KB jti (Benchmarks/client-secret-jwt.yaml)
#   par         pushed authorization requests of 900 KB
#   device      device authorizations, 50 times as many (small, but each leaves a device code)
#
#   Benchmarks/store-soak.sh [requests-per-kind] [seconds-per-kind]     defaults: 1000, 120
#
# With CONFORMANCE=path/to/conformance, that binary is measured instead of a fresh release build
# (an earlier build, copied aside, for a before-and-after); KINDS="par device" measures those only. Everything binds 127.0.0.1; each kind
# stops after its count of requests or its seconds, whichever comes first.
set -euo pipefail
cd "$(dirname "$0")/.."
requests="${1:-1000}"
seconds="${2:-120}"

conformance="${CONFORMANCE:-}"
if [ -z "$conformance" ]; then
  build_log=$(mktemp)
  if ! swift build -c release --product conformance --scratch-path .build-release >"$build_log" 2>&1; then
    cat "$build_log" >&2
    exit 1
  fi
  rm -f "$build_log"
  conformance=".build-release/release/conformance"
fi

work=$(mktemp -d)
served_pid=""
cleanup() {
  [ -n "$served_pid" ] && kill "$served_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

echo "store-soak: $conformance, at most $requests requests or ${seconds}s per kind, loopback"
for kind in ${KINDS:-journal assertions par device}; do
  port=$(free_port)
  scenario=()
  [ "$kind" = assertions ] && scenario=(--scenario Benchmarks/client-secret-jwt.yaml)
  "$conformance" serve --port "$port" "${scenario[@]}" >"$work/$kind.log" 2>&1 &
  served_pid=$!
  for _ in $(seq 50); do
    curl -sf "http://127.0.0.1:$port/.well-known/oauth-authorization-server" >/dev/null && break
    sleep 0.1
  done
  python3 - "$kind" "$port" "$served_pid" "$requests" "$seconds" <<'PY'
import base64, hashlib, hmac, http.client, json, sys, time, uuid
kind, port, pid, requests, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
if kind == "device":
    requests *= 50
base = f"http://127.0.0.1:{port}"
basic = "Basic " + base64.b64encode(b"conformance-client:conformance-secret").decode()
form = {"Content-Type": "application/x-www-form-urlencoded"}

def peak_kib():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])

def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

def assertion():
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    now = int(time.time())
    claims = {"iss": "conformance-client", "sub": "conformance-client", "aud": base + "/token",
              "iat": now, "exp": now + 60, "jti": uuid.uuid4().hex + "j" * 700_000}
    body = header + "." + b64url(json.dumps(claims).encode())
    mac = hmac.new(b"store-soak-client-secret-of-32-bytes", body.encode(), hashlib.sha256).digest()
    return body + "." + b64url(mac)

def request():
    if kind == "journal":
        return "/token", form, "grant_type=password&padding=" + "x" * 1_000_000
    if kind == "assertions":
        return "/token", form, ("grant_type=client_credentials&client_assertion_type="
                                "urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer"
                                "&client_assertion=" + assertion())
    if kind == "par":
        return "/par", {**form, "Authorization": basic}, (
            "response_type=code&client_id=conformance-client&redirect_uri=http://127.0.0.1/callback"
            "&padding=" + "y" * 900_000)
    return "/device_authorization", {**form, "Authorization": basic}, ""

before = peak_kib()
started = time.monotonic()
sent, statuses = 0, {}
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
while sent < requests and time.monotonic() - started < seconds:
    path, headers, body = request()
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        statuses[response.status] = statuses.get(response.status, 0) + 1
    except (OSError, http.client.HTTPException):
        connection.close()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        statuses["error"] = statuses.get("error", 0) + 1
    sent += 1
elapsed = time.monotonic() - started
print(f"{kind:<11} {sent:>5} requests in {elapsed:5.1f} s  peak RSS {before / 1024:7.1f} MiB -> {peak_kib() / 1024:7.1f} MiB"
      f"  (answers: {', '.join(f'{k}: {v}' for k, v in sorted(statuses.items(), key=str))})")
PY
  kill "$served_pid" 2>/dev/null || true
  wait "$served_pid" 2>/dev/null || true
  served_pid=""
done
