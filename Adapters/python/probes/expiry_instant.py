"""Does the library take a token for expired at the very instant it expires (expires_at == now)?
Case: requests-oauthlib. oauthlib raises TokenExpiredError, which triggers OAuth2Session's
automatic refresh, only when `_expires_at < time.time()`.

The application signs in (expires_in 3600), then makes a call at the instant of expiry. No probe
can wait an hour, and real time never lands on an exact second: the probe stands the clock
(time.time, which is all oauthlib reads) still at the token's expires_at, as libfaketime does
for the harness. The resource refuses at-1 from that instant on (RFC 6749 §4.2.2: the token
lives expires_in seconds)."""

import time
from unittest import mock

from applications import application
from throwaway_server import Answer, Server, case_argument, json_answer, now, outcome, step, token_answer, verdict, watchdog

case_argument([("requests-oauthlib",)], "expiry_instant.py requests-oauthlib")
watchdog()
expired = set()


def token(request):
    number = server.count("/token")
    return token_answer(f"at-{number}", 3600, "rt-1")


def resource(request):
    presented = (request.headers.get("Authorization") or "").partition(" ")[2]
    if presented and presented not in expired:
        return json_answer({"ok": True})
    return Answer(401, b"", {"WWW-Authenticate": 'Bearer error="invalid_token", error_description="expired"'})


server = Server({"/token": token, "/resource": resource}, name="provider")
app = application("requests-oauthlib", server)
step("requests-oauthlib: sign in (password grant), expires_in 3600")
token_held, _ = outcome(app.sign_in)
expires_at = token_held["expires_at"]
expired.add("at-1")
step(f"the clock stands still at expires_at = {expires_at} (now + {expires_at - now():.0f} s): call GET /resource")
with mock.patch.object(time, "time", lambda: float(expires_at)):
    response, raised = outcome(app.call)
sent = server.made("/resource")
refreshes = server.count("/token", grant_type="refresh_token")
verdict(len(sent) == 1 and sent[0].headers.get("Authorization") == "Bearer at-1" and refreshes == 0
        and response is not None and response.status_code == 401,
        "at the very instant of expiry oauthlib still sends the token (expires_at < now is false), gets 401 and does "
        "not refresh",
        f"{len(sent)} resource request(s) {[r.headers.get('Authorization') for r in sent]}, {refreshes} refreshes, "
        f"{'HTTP ' + str(response.status_code) if response is not None else repr(raised)}")
