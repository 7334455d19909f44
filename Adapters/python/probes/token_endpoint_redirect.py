"""Does the library follow a redirect from the token endpoint, posting the token request (client
credentials, password) again to wherever it points? Case: <library> <307 | 308>...: the password
sign-in's token request is answered with that status and a Location on another origin (a second
throwaway server, another port). Several statuses run one after the other."""

from applications import LIBRARIES, PASSWORD, application
from throwaway_server import (Server, outcome, redirect_answer, step, token_answer, variants_argument, verdict_of_all,
                              watchdog)


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


library, statuses = variants_argument(dict.fromkeys(LIBRARIES, ("307", "308")),
                                      "token_endpoint_redirect.py <library> <307|308>...")
watchdog()
results = [probe(library, status) for status in statuses]
verdict_of_all(results,
               lambda claims: f"{library} follows a redirect from the token endpoint and posts the token request again "
                              f"to the other origin ({claims})",
               lambda failures: f"{library}: {failures}")
