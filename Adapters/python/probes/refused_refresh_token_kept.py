"""Does the library keep a refresh token the provider refused (invalid_grant) and send it again
on the next call? Case: <library> [invalid_grant | error-body-200]: the refusal as a 400 error
response, or as HTTP 200 with {"error":"invalid_grant"} (errors/error-body-with-200/refresh).

The application holds an expired access token and refresh token rt-1 (as restored from its
store); it calls the resource twice. The token endpoint refuses every refresh."""

from applications import LIBRARIES, application
from throwaway_server import (Server, bearer_resource, case_argument, error_answer, json_answer, now, outcome, step,
                              verdict, watchdog)

CASES = [(library, answer) for library in LIBRARIES for answer in ("invalid_grant", "error-body-200")]
library, answer = case_argument(CASES, "refused_refresh_token_kept.py <library> <invalid_grant|error-body-200>")
watchdog()


def token(request):
    if answer == "invalid_grant":
        return error_answer("invalid_grant", 400, description="refresh token revoked")
    return json_answer({"error": "invalid_grant"}, 200)


server = Server({"/token": token, "/resource": bearer_resource(set())}, name="provider")
app = application(library, server, token={"access_token": "at-1", "refresh_token": "rt-1", "token_type": "Bearer",
                                          "expires_at": int(now()) - 10})
step(f"{library}: the held access token expired 10 s ago; refresh token rt-1. Every refresh is refused ({answer}).")
for attempt in (1, 2):
    step(f"call {attempt}: GET /resource")
    outcome(app.call)
    step(f"  the library now holds refresh_token={app.held().get('refresh_token')!r}")

refreshes = server.made("/token", grant_type="refresh_token")
sent = [r.field("refresh_token") for r in refreshes]
verdict(len(refreshes) >= 2 and all(value == "rt-1" for value in sent),
        f"{library} keeps the refresh token refused with invalid_grant "
        f"({'a 400 error response' if answer == 'invalid_grant' else 'HTTP 200 with an error body'}) and sends it again on the next call "
        f"({len(refreshes)} refreshes, each with rt-1)",
        f"{library} sent {len(refreshes)} refresh request(s) carrying {sent}")
