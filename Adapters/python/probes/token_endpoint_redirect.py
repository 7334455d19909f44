"""Does the library follow a redirect from the token endpoint, posting the token request (client
credentials, password) again to wherever it points? Case: <library> <307 | 308>...: the password
sign-in's token request is answered with that status and a Location on another origin (a second
throwaway server, another port). Several statuses run one after the other."""

import sys

from applications import LIBRARIES, PASSWORD, application
from throwaway_server import Server, outcome, redirect_answer, step, token_answer, verdict, watchdog


def probe(library, status):
    other = Server({"/token": lambda request: token_answer("at-other", 3600, "rt-other")}, name="other-origin")
    provider = Server({"/token": lambda request: redirect_answer(int(status), other.to("/token"))}, name="provider")
    app = application(library, provider)
    step(f"{library}: sign in (password grant); the token endpoint answers {status} Location: {other.to('/token')}")
    outcome(app.sign_in)
    arrived = other.made("/token")
    leaked = [name for name in ("password", "client_secret") if arrived and arrived[0].field(name)]
    if arrived and arrived[0].headers.get("Authorization"):
        leaked.append("Authorization")
    ok = bool(arrived) and arrived[0].method == "POST" and arrived[0].field("password") == PASSWORD
    return ok, f"{status}: the form went to the other origin with {', '.join(leaked)}", \
        f"{status}: {len(arrived)} request(s) reached the other origin"


arguments = sys.argv[1:]
if len(arguments) < 2 or arguments[0] not in LIBRARIES or not set(arguments[1:]) <= {"307", "308"}:
    print("usage: token_endpoint_redirect.py <library> <307|308>...", file=sys.stderr)
    sys.exit(2)
library = arguments[0]
watchdog()
results = [probe(library, status) for status in arguments[1:]]
verdict(all(ok for ok, _, _ in results),
        f"{library} follows a redirect from the token endpoint and posts the token request again to the other origin ("
        + "; ".join(claim for _, claim, _ in results) + ")",
        f"{library}: " + "; ".join(otherwise for ok, _, otherwise in results if not ok))
