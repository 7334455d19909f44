"""Probe: in a plain OAuth 2.0 code flow (authorization_request(scope=None): no openid scope, no
nonce), OAuth2Client.authorization_code(AuthorizationResponse) still validates an id_token member
of the token response (validate=True by default, requests_oauth2client/client.py:759-760), so a
member RFC 6749 §5.1 tells an OAuth client to ignore fails the sign-in: an unsigned ID token is
refused with MismatchingIdTokenAlg (tokens.py:394-395, the client's default
id_token_signed_response_alg is RS256, client.py:328) and no token reaches the application.
Run: .venv/bin/python probes/requests_oauth2client_code_flow_validates_any_id_token.py"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from probe_server import ProbeServer, finish

from requests_oauth2client import OAuth2Client

UNSIGNED_ID_TOKEN = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9."  # {"alg":"none"}.{"sub":"alice"}

with ProbeServer() as server:
    server.code_response = {"access_token": "code-access-token", "token_type": "Bearer", "expires_in": 3600,
                            "refresh_token": "code-refresh-token", "id_token": UNSIGNED_ID_TOKEN, "ext_expires_in": 7200}
    client = OAuth2Client(token_endpoint=f"{server.base}/token", authorization_endpoint=f"{server.base}/authorize",
                          redirect_uri="http://127.0.0.1/callback", client_id="probe-client", client_secret="probe-secret",
                          testing=True)
    request = client.authorization_request(scope=None)  # plain OAuth: no openid scope, so no nonce
    print(f"  authorization request: {request.uri}")
    # The user consented; the browser comes back with a code and the request's state.
    response = request.validate_callback(f"http://127.0.0.1/callback?code=the-code&state={request.state}")
    try:
        token = client.authorization_code(response)
        surfaced = f"a token: {token.access_token}"
        refused = None
    except Exception as exception:  # what the application sees
        refused = exception
        surfaced = f"{type(refused).__module__}.{type(refused).__qualname__}: {refused}"
    print(f"  surfaced: {surfaced}")
    redeemed = [r for r in server.token_requests() if r[2].get("grant_type") == "authorization_code"]

finish(bool(redeemed) and refused is not None and type(refused).__name__ == "MismatchingIdTokenAlg",
       "authorization_code(AuthorizationResponse) of a code flow that asked no openid scope validates the response's unknown "
       "id_token member and refuses the sign-in (MismatchingIdTokenAlg: alg none, RS256 expected) instead of ignoring it",
       f"code redeemed: {bool(redeemed)}; surfaced: {surfaced}")
