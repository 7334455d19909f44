"""How does the library's refresh window meet a token that lives less than the window? Case:
<library>: the library's documented default leeway (authlib: 60 s; google-auth: its fixed
REFRESH_THRESHOLD, 3 min 45 s) against access tokens that live 20 s. The application signs in
(google-auth-oauthlib, which has no password grant: holds a session signed in just now) and calls
the resource three times straight away."""

from applications import LIBRARIES, application, calls
from throwaway_server import Server, bearer_resource, case_argument, now, outcome, step, token_answer, verdict, watchdog

(library,) = case_argument([(library,) for library in LIBRARIES], "short_lifetime.py <library>")
watchdog()
valid = set()


def token(request):
    number = server.count("/token")
    valid.add(f"at-{number}")
    return token_answer(f"at-{number}", 20, "rt-1")


server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
if library == "google-auth-oauthlib":
    # No password grant: a saved session whose token was issued just now for 20 s, as a sign-in leaves it.
    valid.add("at-0")
    app = application(library, server, token={"access_token": "at-0", "refresh_token": "rt-1", "token_type": "Bearer",
                                              "expires_at": now() + 20})
    step(f"{library}: a session signed in just now; access tokens live 20 s")
else:
    app = application(library, server)
    step(f"{library}: sign in (password grant); access tokens live 20 s")
    outcome(app.sign_in)
calls(app, times=3)
refreshes = server.count("/token", grant_type="refresh_token")
if library == "google-auth-oauthlib":
    verdict(refreshes == 3,
            f"{library}: with google-auth's REFRESH_THRESHOLD of 3 min 45 s and a 20-second token, the token is always "
            f"within it, so it refreshes before every request ({refreshes} refreshes for 3 calls)",
            f"{library} made {refreshes} refreshes for 3 calls")
verdict(refreshes == 3,
        f"{library}: with its refresh window (leeway) of 60 s and a 20-second token, the token is always within the "
        f"window, so it refreshes before every request ({refreshes} refreshes for 3 calls)",
        f"{library} made {refreshes} refreshes for 3 calls")
