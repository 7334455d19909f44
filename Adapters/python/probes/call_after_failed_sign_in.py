"""After a sign-in that failed, does the library refuse the next call (no token to send), or
send it anyway? Case: <library> <how the sign-in fails>:
  token-error          the token endpoint answers 400 invalid_grant (errors/token-error-surfaced/*)
  error-body-200       HTTP 200 with {"error":"invalid_grant"} (errors/error-body-with-200/login)
  missing-access-token-password, missing-access-token-client_credentials
                       HTTP 200 with a token response without access_token
  truncated            the token response cut after 25 bytes
  expires-in-soon      a token response with "expires_in": "soon"
  access-denied        the authorization code flow's redirect carries error=access_denied
Then the application calls the resource, as it does after any sign-in attempt; the probe reports
whether that call reached the resource and with what Authorization."""

import json

from applications import CLIENT_ID, CLIENT_SECRET, LIBRARIES, application
from throwaway_server import (Answer, Server, bearer_resource, case_argument, error_answer, json_answer, outcome, step,
                              verdict, watchdog)

HOW = ("token-error", "error-body-200", "missing-access-token-password", "missing-access-token-client_credentials",
       "truncated", "expires-in-soon", "access-denied")
library, how = case_argument([(library, h) for library in LIBRARIES for h in HOW],
                             "call_after_failed_sign_in.py <library> <" + "|".join(HOW) + ">")
watchdog()
TOKEN = {"access_token": "at-1", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt-1"}


def token(request):
    if how == "token-error":
        return error_answer("invalid_grant", 400, description="scripted invalid_grant")
    if how == "error-body-200":
        return json_answer({"error": "invalid_grant", "error_description": "wrong username or password"}, 200)
    if how.startswith("missing-access-token"):
        return json_answer({k: v for k, v in TOKEN.items() if k != "access_token"})
    if how == "truncated":
        return Answer(200, json.dumps(TOKEN).encode()[:25], {"Content-Type": "application/json"})
    if how == "expires-in-soon":
        return json_answer({**TOKEN, "expires_in": "soon"})
    return json_answer(TOKEN)


server = Server({"/token": token, "/resource": bearer_resource({"at-1"})}, name="provider")
grant = "client_credentials" if how.endswith("client_credentials") else "password"
app = application(library, server, grant=grant)

if how == "access-denied":
    if library != "requests-oauthlib":
        verdict(False, "", f"the access-denied case drives requests-oauthlib's code flow only, not {library}")
    from oauthlib.oauth2 import WebApplicationClient
    from requests_oauthlib import OAuth2Session

    # The documentation's web application flow: authorization_url, then fetch_token with the redirect.
    app.session = OAuth2Session(client=WebApplicationClient(client_id=CLIENT_ID), redirect_uri="http://127.0.0.1/callback",
                                pkce="S256")
    url, state = app.session.authorization_url(server.to("/authorize"))
    step(f"{library}: authorization request {url[:90]}...; the browser comes back with error=access_denied")
    step("fetch_token(authorization_response=<redirect with error=access_denied>)")
    outcome(app.session.fetch_token, server.to("/token"), client_secret=CLIENT_SECRET,
            authorization_response=f"http://127.0.0.1/callback?error=access_denied&state={state}", timeout=5)
else:
    step(f"{library}: sign in ({grant} grant); the token endpoint answers: {how}")
    outcome(app.sign_in)
step("the application's next call: GET /resource")
outcome(app.call)

calls = server.made("/resource")
sent = [c.headers.get("Authorization") for c in calls]
verdict(len(calls) == 1 and sent == [None],
        f"{library}: the sign-in failed ({how}), and the next call went out to the resource without Authorization "
        "instead of failing",
        f"{library} sent {len(calls)} resource request(s), with Authorization {sent}")
