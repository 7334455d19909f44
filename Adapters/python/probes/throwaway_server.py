"""What every probe shares: a throwaway HTTP server on 127.0.0.1 (port 0) that answers each
request from a table of handlers and prints it as it arrives, canned answers, a watchdog that
bounds the whole probe, and the verdict line `conformance probe` reads.

Nothing here knows the harness or the adapters: a probe drives its library against this server
as an application would, and judges what it saw."""

import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

# The throwaway server is on loopback: no proxy of the machine's may stand in between (requests
# and httpx both read these).
for name in ("NO_PROXY", "no_proxy"):
    os.environ[name] = "127.0.0.1,localhost"

# No probe waits long for anything: a library call that would block on a socket fails instead
# (urllib3 and httpx take their own timeouts; this covers anything that takes none).
socket.setdefaulttimeout(5)

PRINTED_FIELDS = ("grant_type", "code", "refresh_token", "username", "password", "client_id", "client_secret",
                  "client_assertion", "code_verifier", "device_code")
PRINTED_HEADERS = ("Authorization", "DPoP")


class Request:
    """One request the library sent, as the server read it."""

    def __init__(self, server, method, path, query, headers, body):
        self.server = server
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        content_type = headers.get("Content-Type", "")
        self.form = {k: v[0] for k, v in parse_qs(body.decode("latin-1"), keep_blank_values=True).items()} \
            if "x-www-form-urlencoded" in content_type else {}

    def field(self, name):
        return self.form.get(name)

    def describe(self):
        parts = [f"{self.server.name} {self.method} {self.path}"]
        if self.query:
            parts.append("?" + self.query)
        for name in PRINTED_FIELDS:
            if name in self.form:
                value = self.form[name]
                parts.append(f"{name}={value[:40] + '...' if len(value) > 40 else value!r}")
        for name in PRINTED_HEADERS:
            value = self.headers.get(name)
            if value is not None:
                parts.append(f"{name}: {value[:60] + '...' if len(value) > 60 else value}")
        return " ".join(parts)


class Answer:
    def __init__(self, status=200, body=b"", headers=None):
        self.status = status
        self.body = body if isinstance(body, bytes) else body.encode()
        self.headers = headers or {}


def json_answer(document, status=200, headers=None):
    return Answer(status, json.dumps(document), {"Content-Type": "application/json", "Cache-Control": "no-store", **(headers or {})})


def token_answer(access_token, expires_in=3600, refresh_token=None, token_type="Bearer", **extra):
    """A token response (RFC 6749 §5.1); `refresh_token` or `expires_in` given as `...` are left out."""
    document = {"access_token": access_token, "token_type": token_type}
    if expires_in is not ...:
        document["expires_in"] = expires_in
    if refresh_token is not None and refresh_token is not ...:
        document["refresh_token"] = refresh_token
    document.update(extra)
    return json_answer(document)


def error_answer(code, status=400, headers=None, description=None):
    document = {"error": code}
    if description:
        document["error_description"] = description
    return json_answer(document, status, headers)


def html_answer(status, title="upstream unavailable", headers=None):
    return Answer(status, f"<html><head><title>{status}</title></head><body><h1>{status}</h1><p>{title}</p></body></html>",
                  {"Content-Type": "text/html", **(headers or {})})


def redirect_answer(status, location):
    return Answer(status, b"", {"Location": location})


class Server:
    """A throwaway HTTP server: `routes` maps a path to a handler(request) -> Answer; anything
    else is a 404. Every request is kept in `requests` and printed as it arrives."""

    def __init__(self, routes, name="server"):
        self.routes = routes
        self.name = name
        self.requests = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                request = Request(server, self.command, parts.path, parts.query, self.headers, body)
                with server.lock:
                    server.requests.append(request)
                    print("  -> " + request.describe(), flush=True)
                handler = server.routes.get(parts.path)
                try:
                    answer = handler(request) if handler else Answer(404, b"not found")
                except Exception as exception:  # a probe's own mistake: make it visible, answer 500
                    print(f"  !! handler for {parts.path} failed: {exception!r}", flush=True)
                    answer = Answer(500, b"probe handler failed")
                self.send_response(answer.status)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)

            do_GET = do_POST = do_PUT = do_DELETE = do

            def log_message(self, *args):
                pass

        class HTTPServer(ThreadingHTTPServer):
            request_queue_size = 64  # twenty concurrent calls connect at once

        self.httpd = HTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def to(self, path):
        return self.url + path

    def count(self, path=None, grant_type=None):
        with self.lock:
            return sum(1 for r in self.requests
                       if (path is None or r.path == path) and (grant_type is None or r.field("grant_type") == grant_type))

    def made(self, path=None, grant_type=None):
        with self.lock:
            return [r for r in self.requests
                    if (path is None or r.path == path) and (grant_type is None or r.field("grant_type") == grant_type)]


def bearer_resource(valid_tokens):
    """A resource that answers 200 to `Authorization: Bearer <t>` for t in the set `valid_tokens`
    (which the probe may change as it goes), and 401 otherwise."""

    def resource(request):
        authorization = request.headers.get("Authorization") or ""
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() == "bearer" and token in valid_tokens:
            return json_answer({"ok": True})
        return Answer(401, b"", {"WWW-Authenticate": 'Bearer error="invalid_token"'})

    return resource


def watchdog(seconds=15):
    """Ends the probe, unconfirmed, if it runs longer than `seconds`."""

    def expire():
        print(f"not confirmed: the probe did not finish within {seconds} s", flush=True)
        os._exit(1)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()


def step(text):
    print(text, flush=True)


def outcome(function, *args, **kwargs):
    """Calls `function` as the application does, prints what it returned or raised, and gives
    back (result, exception)."""
    try:
        result = function(*args, **kwargs)
    except Exception as exception:
        message = " ".join(str(exception).split())[:200]
        print(f"  <- raised {type(exception).__module__}.{type(exception).__name__}: {message}", flush=True)
        return None, exception
    shown = f"HTTP {result.status_code}" if hasattr(result, "status_code") else repr(result)[:200]
    print(f"  <- returned {shown}", flush=True)
    return result, None


def verdict(confirmed, claim, otherwise):
    """The probe's last line and exit status: `confirmed: <claim>` (0) or `not confirmed: …` (1)."""
    sys.stdout.flush()
    claim, otherwise = " ".join(claim.split()), " ".join(otherwise.split())  # one line, whatever a message held
    if confirmed:
        print(f"confirmed: {claim}", flush=True)
        sys.exit(0)
    print(f"not confirmed: {otherwise}", flush=True)
    sys.exit(1)


def case_argument(cases, usage):
    """The case named on the command line (sys.argv[1:]), as a tuple; exits 2 on an unknown one."""
    arguments = tuple(sys.argv[1:])
    if arguments not in cases:
        print(f"usage: {usage}; cases: " + ", ".join(" ".join(c) for c in cases), file=sys.stderr)
        sys.exit(2)
    return arguments


def now():
    return time.time()
