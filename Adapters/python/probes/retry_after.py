"""Does the library read Retry-After when the token endpoint turns a refresh away (429 or 503)?
Case: <library>. The application holds an expired access token and refresh token rt-1; the
first refresh is answered 429 with "Retry-After: 30", the second 503 with an HTTP-date 30 s
ahead, the third with a token. The calls come one right after the other: a library that reads
Retry-After makes no refresh until 30 s have passed."""

from email.utils import formatdate

from applications import LIBRARIES, application
from throwaway_server import (Server, bearer_resource, case_argument, error_answer, html_answer, now, outcome, step,
                              token_answer, verdict, watchdog)

(library,) = case_argument([(library,) for library in LIBRARIES], "retry_after.py <library>")
watchdog()
valid = set()


def token(request):
    number = server.count("/token")
    if number == 1:
        return error_answer("temporarily_unavailable", 429, headers={"Retry-After": "30"})
    if number == 2:
        return html_answer(503, headers={"Retry-After": formatdate(now() + 30, usegmt=True)})
    valid.add("at-2")
    return token_answer("at-2", 3600, "rt-1")


server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
app = application(library, server, token={"access_token": "at-1", "refresh_token": "rt-1", "token_type": "Bearer",
                                          "expires_at": int(now()) - 10})
step(f"{library}: the held access token expired 10 s ago; the first refresh gets 429 Retry-After: 30, the second 503 "
     "with a Retry-After date 30 s ahead")
started = now()
for attempt in (1, 2, 3):
    step(f"call {attempt} at +{now() - started:.1f} s: GET /resource")
    outcome(app.call)

refreshes = server.count("/token", grant_type="refresh_token")
elapsed = now() - started
if library == "google-auth-oauthlib":
    # One call: _token_endpoint_request_no_throw retries 429 and 503 itself (_exponential_backoff).
    verdict(refreshes == 3 and elapsed < 30,
            f"{library} does not read Retry-After: after a 429 and a 503 asking for 30 s, its own backoff sent the refresh "
            f"again within the same call, about 1 s and 2 s later ({refreshes} refreshes within {elapsed:.1f} s)",
            f"{library} made {refreshes} refresh request(s) in {elapsed:.1f} s")
verdict(refreshes == 3 and elapsed < 30,
        f"{library} does not read Retry-After: after a 429 and a 503 asking for 30 s, the next calls refreshed at once "
        f"({refreshes} refreshes within {elapsed:.1f} s)",
        f"{library} made {refreshes} refresh request(s) in {elapsed:.1f} s")
