"""Probe: in a plain OAuth 2.0 code flow (authorization_request(scope=None): no openid scope, no
nonce), OAuth2Client.authorization_code(AuthorizationResponse) still validates an id_token member
of the token response (validate=True by default, requests_oauth2client/client.py:759-760), so a
member RFC 6749 §5.1 tells an OAuth client to ignore fails the sign-in: an unsigned ID token is
refused with MismatchingIdTokenAlg (tokens.py:394-395, the client's default
id_token_signed_response_alg is RS256, client.py:328) and no token reaches the application.
The code flow is applications.py's, set up as the adapter's (issuer and RFC 9207 support).
Run: .venv/bin/python probes/requests_oauth2client_code_flow_validates_any_id_token.py"""

from urllib.parse import urlencode

from applications import REDIRECT_URI, code_flow
from throwaway_server import Server, outcome, step, token_answer, verdict, watchdog

UNSIGNED_ID_TOKEN = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9."  # {"alg":"none"}.{"sub":"alice"}

watchdog()
# The token response of errors/unknown-members-ignored: members RFC 6749 does not define among the usual ones.
server = Server({"/token": lambda request: token_answer("at-1", 3600, "rt-1", id_token=UNSIGNED_ID_TOKEN,
                                                        ext_expires_in=7200)}, name="provider")
flow = code_flow("requests-oauth2client", server, issuer=server.url)
url, state = flow.authorization_url()  # plain OAuth: no openid scope, so no nonce
step(f"requests-oauth2client: authorization request {url}")
# The user consented; the browser comes back with a code, the request's state and the issuer.
redirect = f"{REDIRECT_URI}?{urlencode({'code': 'code-1', 'state': state, 'iss': server.url})}"
step(f"the browser comes back to {redirect}; authorization_code(validate_callback(redirect))")
_, raised = outcome(flow.redeem, redirect)
redeemed = server.made("/token", grant_type="authorization_code")

surfaced = f"raised {type(raised).__module__}.{type(raised).__name__}: {raised}" if raised else "a token reached it"
verdict(bool(redeemed) and type(raised).__name__ == "MismatchingIdTokenAlg",
        "authorization_code(AuthorizationResponse) of a code flow that asked no openid scope validates the response's "
        "unknown id_token member and refuses the sign-in (MismatchingIdTokenAlg: alg none, RS256 expected) instead of "
        "ignoring it",
        f"code redeemed: {bool(redeemed)}; the application: {surfaced}")
