"""A throwaway OAuth provider for the probes: a token endpoint and a resource on 127.0.0.1 (port 0),
nothing else. Every request is printed and kept in `requests`. The probes drive a library against
it directly, as an application would; none of them imports adapter code.

Token endpoint (POST /token): a refresh with the refresh token the probe saved
(SAVED_REFRESH_TOKEN) gets NEW_ACCESS_TOKEN and NEW_REFRESH_TOKEN for an hour; an authorization
code gets `code_response` (a probe sets it); anything else is invalid_grant. The resource (GET
/resource) answers 200 to "Bearer <a token in `accepted`>", 401 otherwise."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl

SAVED_ACCESS_TOKEN = "saved-access-token"
SAVED_REFRESH_TOKEN = "saved-refresh-token"
NEW_ACCESS_TOKEN = "new-access-token"
NEW_REFRESH_TOKEN = "new-refresh-token"


class ProbeServer:
    def __init__(self):
        self.requests = []  # (method, path, form dict, Authorization header)
        self.accepted = {SAVED_ACCESS_TOKEN, NEW_ACCESS_TOKEN}
        self.code_response = None
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _record(self, form):
                authorization = self.headers.get("Authorization")
                server.requests.append((self.command, self.path, form, authorization))
                shown = {k: v for k, v in form.items() if k not in ("client_secret",)}
                print(f"  request: {self.command} {self.path} Authorization={authorization!r} form={shown}")

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                form = dict(parse_qsl(self.rfile.read(length).decode()))
                self._record(form)
                if self.path != "/token":
                    return self._answer(404, {"error": "not_found"})
                grant = form.get("grant_type")
                if grant == "refresh_token" and form.get("refresh_token") == SAVED_REFRESH_TOKEN:
                    return self._answer(200, {"access_token": NEW_ACCESS_TOKEN, "token_type": "Bearer", "expires_in": 3600,
                                              "refresh_token": NEW_REFRESH_TOKEN})
                if grant == "authorization_code" and server.code_response is not None:
                    return self._answer(200, server.code_response)
                return self._answer(400, {"error": "invalid_grant"})

            def do_GET(self):
                self._record({})
                authorization = self.headers.get("Authorization") or ""
                scheme, _, token = authorization.partition(" ")
                if self.path == "/resource" and scheme.lower() == "bearer" and token in server.accepted:
                    return self._answer(200, {"ok": True})
                return self._answer(401, {"error": "invalid_token"})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.timeout = 5
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def token_requests(self):
        return [r for r in self.requests if r[1] == "/token"]


def finish(ok, claim, what_happened):
    """The probe's last line and exit status (docs: `confirmed: …` exit 0, `not confirmed: …` exit 1)."""
    import sys

    if ok:
        print(f"confirmed: {claim}")
        sys.exit(0)
    print(f"not confirmed: {what_happened}")
    sys.exit(1)
