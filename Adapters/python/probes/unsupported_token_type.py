"""What does the library do with a token of a type it does not implement? Case: <library> mac
[on-refresh]: the sign-in's token response (or, on-refresh, the refresh's, once the sign-in's
one-second token has expired) says "token_type": "mac" (no mac_key, no mac_algorithm). RFC 6749
§7.1: a client must not use a token whose type it does not understand; a conforming library
refuses it, at once or when the application calls the resource, and sends it nowhere."""

import time

from applications import LIBRARIES, application
from throwaway_server import Server, bearer_resource, case_argument, outcome, step, token_answer, verdict, watchdog

library, token_type, *mode = case_argument(
    [(library, "mac") for library in LIBRARIES] + [(library, "mac", "on-refresh") for library in LIBRARIES],
    "unsupported_token_type.py <library> mac [on-refresh]")
on_refresh = mode == ["on-refresh"]
watchdog()


def token(request):
    if not on_refresh:
        return token_answer("at-1", 3600, "rt-1", token_type=token_type)
    if request.field("grant_type") == "refresh_token":
        return token_answer("at-2", 3600, "rt-1", token_type=token_type)
    return token_answer("at-1", 1, "rt-1")   # Bearer, gone in a second (probes have no virtual clock)


server = Server({"/token": token, "/resource": bearer_resource({"at-1"})}, name="provider")
app = application(library, server)
step(f"{library}: sign in (password grant); the {'refresh' if on_refresh else 'sign-in'}'s token response "
     f"says token_type {token_type!r}")
_, sign_in_error = outcome(app.sign_in)
if on_refresh:
    time.sleep(2.5)
    step("the sign-in's token has expired: the next call refreshes")
step("call: GET /resource")
_, raised = outcome(app.call)
unusable = "at-2" if on_refresh else "at-1"
sent = sum(1 for request in server.made("/resource") if unusable in (request.headers.get("Authorization") or ""))
verdict(sign_in_error is None and isinstance(raised, AttributeError) and sent == 0,
        f"{library} crashes on token_type {token_type}{' in a refresh response' if on_refresh else ''} "
        f"({type(raised).__name__}: {raised}) instead of refusing the token: an unexpected error, not a refusal",
        f"{library}: sign-in {'raised ' + repr(sign_in_error) if sign_in_error else 'succeeded'}, the call "
        f"{'raised ' + repr(raised) if raised else 'succeeded'}, {sent} resource request(s) with the unusable token")
