"""Does the library fetch a new client_credentials token by itself once the one it holds has
expired? Case: requests-oauthlib. The application signs in with the client_credentials grant
(BackendApplicationClient and fetch_token, as the documentation's "Backend Application Flow"
shows; the documentation sets up no automatic refresh for this grant, and there is no refresh
token to refresh with). The token lives 1 s; the probe waits 2 s, then calls the resource twice."""

import time

from applications import application
from throwaway_server import Server, bearer_resource, case_argument, outcome, step, token_answer, verdict, watchdog

(library,) = case_argument([("requests-oauthlib",)], "client_credentials_expiry.py requests-oauthlib")
watchdog()
valid = set()


def token(request):
    number = server.count("/token")
    valid.add(f"at-{number}")
    return token_answer(f"at-{number}", 1)


server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
app = application(library, server, grant="client_credentials")
step(f"{library}: sign in (client_credentials grant); the token lives 1 s")
outcome(app.sign_in)
time.sleep(2)
errors = []
for attempt in (1, 2):
    step(f"call {attempt}, after the token expired: GET /resource")
    errors.append(outcome(app.call)[1])
token_requests = server.count("/token")
verdict(token_requests == 1 and all(type(e).__name__ == "TokenExpiredError" for e in errors),
        f"{library}: a client_credentials token is never fetched again by itself; calls fail with token_expired "
        "(TokenExpiredError), and no new token request goes out",
        f"{library} made {token_requests} token request(s); the calls ended in {[repr(e) for e in errors]}")
