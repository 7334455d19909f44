"""What does the library do with a token of a type it does not implement? Case: <library> <type>
[on-refresh]: the sign-in's token response (or, on-refresh, the refresh's, once the sign-in's
one-second token has expired) says "token_type": <type> (mac without mac_key or mac_algorithm,
N_A, DPoP). RFC 6749 §7.1: a client must not use a token whose type it does not understand; a
conforming library refuses it, at once or when the application calls the resource, and sends it
nowhere. google-auth-oauthlib has no password grant: it starts from a saved session (Credentials),
so only its on-refresh case is run here (its sign-in's is code_flow_token_response.py's).

What each library is claimed to do (the profiles' reasons) is the expectation checked:
  requests-oauthlib mac       crashes (AttributeError) before sending anything: not a refusal
  google-auth-oauthlib <any>  never reads token_type: the refreshed token is sent as Bearer"""

import time

from applications import LIBRARIES, application
from throwaway_server import Server, bearer_resource, case_argument, outcome, step, token_answer, verdict, watchdog

TYPES = ("mac", "N_A", "DPoP")
library, token_type, *mode = case_argument(
    [(library, "mac") for library in LIBRARIES if library != "google-auth-oauthlib"]
    + [(library, "mac", "on-refresh") for library in LIBRARIES]
    + [("google-auth-oauthlib", other, "on-refresh") for other in TYPES[1:]],
    "unsupported_token_type.py <library> mac [on-refresh] | google-auth-oauthlib <mac|N_A|DPoP> on-refresh")
on_refresh = mode == ["on-refresh"]
watchdog()


def token(request):
    if not on_refresh:
        return token_answer("at-1", 3600, "rt-1", token_type=token_type)
    if request.field("grant_type") == "refresh_token":
        return token_answer("at-2", 3600, "rt-1", token_type=token_type)
    return token_answer("at-1", 1, "rt-1")   # Bearer, gone in a second (probes have no virtual clock)


server = Server({"/token": token, "/resource": bearer_resource({"at-1", "at-2"})}, name="provider")
sign_in_error = None
if library == "google-auth-oauthlib":
    step(f"{library}: a saved session whose token expires in a second; the refresh's answer says token_type {token_type!r}")
    app = application(library, server, token={"access_token": "at-1", "refresh_token": "rt-1",
                                              "expires_at": time.time() + 1})
else:
    app = application(library, server)
    step(f"{library}: sign in (password grant); the {'refresh' if on_refresh else 'sign-in'}'s token response "
         f"says token_type {token_type!r}")
    _, sign_in_error = outcome(app.sign_in)
if on_refresh:
    time.sleep(2.5)
    step("the first token has expired: the next call refreshes")
step("call: GET /resource")
_, raised = outcome(app.call)
unusable = "at-2" if on_refresh else "at-1"
presented = [request.headers.get("Authorization") or "" for request in server.made("/resource")]
sent = [header for header in presented if unusable in header]
what = (f"{library}: sign-in {'raised ' + repr(sign_in_error) if sign_in_error else 'succeeded'}, the call "
        f"{'raised ' + repr(raised) if raised else 'succeeded'}, the unusable token presented {sent or 'nowhere'}")
where = " in a refresh response" if on_refresh else ""
if library == "google-auth-oauthlib":
    verdict(sent == [f"Bearer {unusable}"],
            f"{library} never reads token_type: the {token_type} token{where} is sent as Bearer", what)
else:
    verdict(sign_in_error is None and isinstance(raised, AttributeError) and not sent,
            f"{library} crashes on token_type {token_type}{where} ({type(raised).__name__}: {raised}) instead of "
            "refusing the token: an unexpected error, not a refusal", what)
