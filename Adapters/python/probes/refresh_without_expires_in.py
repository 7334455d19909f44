"""What does the library take for the lifetime of a refreshed token whose response has no
expires_in? Case: requests-oauthlib. The application holds an access token that expired 10 s ago;
each refresh answers a new access token and no expires_in (RFC 6749 §5.1: the server then
documents the lifetime; nothing says the old expiry still applies). Two calls."""

from applications import application
from throwaway_server import Server, bearer_resource, case_argument, json_answer, now, outcome, step, verdict, watchdog

(library,) = case_argument([("requests-oauthlib",)], "refresh_without_expires_in.py requests-oauthlib")
watchdog()
valid = set()


def token(request):
    number = server.count("/token") + 1
    valid.add(f"at-{number}")
    return json_answer({"access_token": f"at-{number}", "token_type": "Bearer", "refresh_token": "rt-1"})


server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
expired_at = int(now()) - 10
app = application(library, server, token={"access_token": "at-1", "refresh_token": "rt-1", "token_type": "Bearer",
                                          "expires_at": expired_at})
step(f"{library}: the held access token expired 10 s ago; refresh answers carry no expires_in")
errors = []
for attempt in (1, 2):
    step(f"call {attempt}: GET /resource")
    errors.append(outcome(app.call)[1])
    step(f"  the library now holds access_token={app.held().get('access_token')!r}, expires_at={app.session._client._expires_at}")
refreshes = server.count("/token", grant_type="refresh_token")
verdict(refreshes == 2 and all(type(e).__name__ == "TokenExpiredError" for e in errors)
        and app.session._client._expires_at == expired_at,
        f"{library}: a refresh response without expires_in keeps the old expires_at ({expired_at}), so each call refreshes "
        "and still fails with TokenExpiredError",
        f"{library} made {refreshes} refreshes; the calls ended in {[repr(e) for e in errors]}")
