"""How often does the library refresh and replay after a resource's 401? Case: <library> <variant>...:
  storm  the resource answers every request 401 invalid_token, fresh tokens included; one call.
  stale  two calls at once with at-1, which the resource no longer takes (401 after 0.3 s, so that
         both have left with at-1); at-2 and later are taken.
The application holds a saved session whose access token lives another hour (the library has no
reason to refresh before the call), refresh token rt-1; each refresh answers a new access token.
Several variants run one after the other, each against a server of its own."""

import time

from applications import LIBRARIES, application, in_threads
from throwaway_server import (Answer, Server, now, outcome, step, token_answer, variants_argument, verdict_of_all,
                              watchdog)


def probe(library, variant):
    def token(request):
        number = server.count("/token") + 1
        return token_answer(f"at-{number}", 3600, "rt-1")

    def resource(request):
        authorization = request.headers.get("Authorization") or ""
        if variant == "stale" and authorization != "Bearer at-1":
            return Answer(200, b"{}", {"Content-Type": "application/json"})
        if variant == "stale":
            time.sleep(0.3)
        return Answer(401, b"", {"WWW-Authenticate": 'Bearer error="invalid_token"'})

    server = Server({"/token": token, "/resource": resource}, name="provider")
    app = application(library, server, token={"access_token": "at-1", "refresh_token": "rt-1", "token_type": "Bearer",
                                              "expires_at": int(now()) + 3600})
    if variant == "storm":
        step(f"{library}: one call; the resource answers every request 401 invalid_token")
        outcome(app.call)
    else:
        step(f"{library}: two calls at once with at-1, which the resource answers 401 (after 0.3 s)")
        results = in_threads(app.call, 2)
        step(f"  <- {[type(r).__name__ if isinstance(r, Exception) else f'HTTP {r.status_code}' for r in results]}")
    refreshes = server.count("/token", grant_type="refresh_token")
    calls = server.count("/resource")
    sent = [r.headers.get("Authorization") for r in server.made("/resource")]
    happened = f"{variant}: {refreshes} refreshes, {calls} resource requests {sent}"
    if variant == "storm":
        return (refreshes == 2 and calls == 3,
                f"storm: one call that meets nothing but 401 makes {refreshes} refreshes and {calls} resource requests "
                "(a refresh and a replay after each of the first two 401s)", happened)
    return (refreshes == 2,
            f"stale: two calls rejected for the same at-1 each refresh ({refreshes} refreshes); the second does not replay "
            "with the token the first one obtained", happened)


library, variants = variants_argument(dict.fromkeys(LIBRARIES, ("storm", "stale")),
                                      "unauthorized_retries.py <library> <storm|stale>...")
watchdog()
results = [probe(library, variant) for variant in variants]
verdict_of_all(results, lambda claims: f"{library}: {claims}", lambda failures: f"{library}: {failures}")
