"""How does the library's refresh window meet a token that lives less than the window? Case:
<library>: the library's documented default leeway (authlib: 60 s) against access tokens that
live 20 s. The application signs in and calls the resource three times straight away."""

from applications import LIBRARIES, application
from throwaway_server import Server, bearer_resource, case_argument, outcome, step, token_answer, verdict, watchdog

(library,) = case_argument([(library,) for library in LIBRARIES], "short_lifetime.py <library>")
watchdog()
valid = set()


def token(request):
    number = server.count("/token")
    valid.add(f"at-{number}")
    return token_answer(f"at-{number}", 20, "rt-1")


server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
app = application(library, server)
step(f"{library}: sign in (password grant); access tokens live 20 s")
outcome(app.sign_in)
for attempt in (1, 2, 3):
    step(f"call {attempt}: GET /resource")
    outcome(app.call)
refreshes = server.count("/token", grant_type="refresh_token")
verdict(refreshes == 3,
        f"{library}: with its refresh window (leeway) of 60 s and a 20-second token, the token is always within the "
        f"window, so it refreshes before every request ({refreshes} refreshes for 3 calls)",
        f"{library} made {refreshes} refreshes for 3 calls")
