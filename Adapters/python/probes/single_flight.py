"""Do concurrent calls that find the token expired share one token request (single flight)?
Case: <library> <refresh | failed-refresh | client-credentials>:
  refresh             20 calls at once, access token expired, refresh token rt-1; each refresh
                      succeeds (a new access token, rt-1 kept).
  failed-refresh      10 calls at once; every refresh is refused invalid_grant; then one call more.
  client-credentials  20 calls at once with an expired client_credentials token (no refresh
                      token), on a client set up to ask again by itself.
The token endpoint takes 0.5 s to answer, as a real one may, so that every call finds the token
still expired while the first token request is under way. The requests-based libraries are
called from 20 (10) threads sharing one session, authlib-async from as many tasks gathered on one
client. The server records how many token requests were open at once."""

import threading
import time

from applications import LIBRARIES, application, in_threads
from throwaway_server import (Server, bearer_resource, case_argument, error_answer, now, step, token_answer, verdict,
                              watchdog)

CASES = [(library, case) for library in LIBRARIES for case in ("refresh", "failed-refresh", "client-credentials")]
library, case = case_argument(CASES, "single_flight.py <library> <refresh|failed-refresh|client-credentials>")
watchdog(18)
calls = 10 if case == "failed-refresh" else 20
valid = set()
open_requests = [0, 0]  # now, most at once
lock = threading.Lock()


def token(request):
    with lock:
        open_requests[0] += 1
        open_requests[1] = max(open_requests)
        number = server.count("/token")
    time.sleep(0.5)
    with lock:
        open_requests[0] -= 1
    if case == "failed-refresh":
        return error_answer("invalid_grant", 400, description="refresh token refused")
    valid.add(f"at-{number + 1}")
    return token_answer(f"at-{number + 1}", 3600, "rt-1" if case == "refresh" else None)


server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
grant = "client_credentials" if case == "client-credentials" else "password"
held = {"access_token": "at-1", "token_type": "Bearer", "expires_at": int(now()) - 10}
if grant == "password":
    held["refresh_token"] = "rt-1"
app = application(library, server, token=held, grant=grant)
step(f"{library}: {calls} calls at once; the held {grant} access token expired 10 s ago"
     + ("; every refresh is refused invalid_grant" if case == "failed-refresh" else ""))
if library == "authlib-async":
    results = app.gather(calls)
else:
    results = in_threads(app.call, calls)
outcomes = {}
for result in results:
    shown = type(result).__name__ if isinstance(result, Exception) else f"HTTP {result.status_code}"
    outcomes[shown] = outcomes.get(shown, 0) + 1
step(f"what the {calls} calls returned or raised: {outcomes}")
if case == "failed-refresh":
    step("one more call after the batch:")
    try:
        app.call()
    except Exception as exception:
        step(f"  <- raised {type(exception).__name__}")
token_requests = server.made("/token")
grants = {}
for request in token_requests:
    key = f"{request.field('grant_type')}" + (f" with {request.field('refresh_token')}" if request.field("refresh_token") else "")
    grants[key] = grants.get(key, 0) + 1
step(f"token requests: {len(token_requests)} ({grants}); at most {open_requests[1]} open at once")

if case == "refresh":
    verdict(len(token_requests) > 1 and all(r.field("refresh_token") == "rt-1" for r in token_requests),
            f"{library} has no single-flight refresh: {calls} concurrent calls with an expired token made "
            f"{len(token_requests)} refreshes, each with the same refresh token rt-1",
            f"{library} made {len(token_requests)} token request(s) for {calls} concurrent calls: {grants}")
elif case == "failed-refresh":
    verdict(len(token_requests) == calls + 1 and all(r.field("refresh_token") == "rt-1" for r in token_requests),
            f"{library} does not share a failed refresh: each of the {calls} concurrent calls sent its own refresh with "
            f"the refresh token the provider refused (at most {open_requests[1]} at once), and the next call sent it once more",
            f"{library} made {len(token_requests)} token request(s) for {calls} concurrent calls: {grants}")
else:
    verdict(len(token_requests) > 1 and all(r.field("grant_type") == "client_credentials" for r in token_requests),
            f"{library} has no single flight for client_credentials: {calls} concurrent calls with an expired token each "
            f"asked for a new one ({len(token_requests)} client_credentials requests)",
            f"{library} made {len(token_requests)} token request(s) for {calls} concurrent calls: {grants}")
