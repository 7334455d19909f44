"""What does the library do with an authorization response that carries error=access_denied
(its state right, no code)? Case: <library>. The application hands the redirect to the library
as for any other (the code flow of applications.py); the probe reports what the library raised,
and which token request, if any, it sent instead."""

from urllib.parse import urlencode

from applications import LIBRARIES, REDIRECT_URI, code_flow
from throwaway_server import Server, case_argument, outcome, step, token_answer, verdict, watchdog

(library,) = case_argument([(library,) for library in LIBRARIES], "authorization_denied.py <library>")
watchdog()
server = Server({"/token": lambda request: token_answer("at-1", 3600)}, name="provider")
flow = code_flow(library, server, issuer=server.url)
url, state = flow.authorization_url()
redirect = f"{REDIRECT_URI}?{urlencode({'error': 'access_denied', 'state': state, 'iss': server.url})}"
step(f"{library}: the browser comes back to {redirect}")
_, raised = outcome(flow.redeem, redirect)
sent = server.made("/token")
grants = [r.field("grant_type") for r in sent]
with_verifier = any(r.field("code_verifier") for r in sent)
verdict(raised is None and grants == ["client_credentials"],
        f"{library}: an authorization response with error=access_denied raises nothing; the library guesses a "
        f"client_credentials grant and sends it{' (with the PKCE verifier)' if with_verifier else ''}",
        f"{library} {'raised ' + type(raised).__name__ if raised else 'raised nothing'} and sent token requests {grants}")
