"""Does the library take a saved session without a request, use a valid one as is, and refresh an
expired one with its refresh token before the call? Case: <library>. The application hands the
library a saved session as its documentation shows (applications.py, grant "tokens"):

  authlib            OAuth2Session(token=saved, update_token=...): OAuth2Session.request ->
                     ensure_active_token (authlib/oauth2/client.py:323-331)
  authlib-async      AsyncOAuth2Client(token=saved, update_token=...): ensure_active_token under
                     its anyio lock (authlib/integrations/httpx_client/oauth2_client.py:112-123, 140-155)
  requests-oauthlib  OAuth2Session(token=saved, auto_refresh_url, auto_refresh_kwargs, token_updater):
                     oauthlib's add_token raises TokenExpiredError once expires_at < time.time()
                     (oauthlib/oauth2/rfc6749/clients/base.py:215-216), and OAuth2Session.request
                     catches it, refreshes and calls token_updater (requests_oauthlib/oauth2_session.py:532-559)
  requests-oauth2client  OAuth2AccessTokenAuth(client, BearerToken(saved)), its docstring's example
                     ("an initial Access Token, if you have one already"): OAuth2AccessTokenAuth.__call__
                     -> renew_token -> OAuth2Client.refresh_token (requests_oauth2client/auth.py:72-94)

Two saved sessions, each against a server of its own: access token at-1 valid for an hour, then
at-1 expired ten seconds ago; refresh token rt-1 in both. A refresh with rt-1 answers at-2 and rt-2.
Run: .venv/bin/python probes/restored_session.py <library>"""

from applications import LIBRARIES, application
from throwaway_server import (PRINTED_FIELDS, Server, bearer_resource, case_argument, error_answer, now, outcome, step,
                              token_answer, verdict, watchdog)

# How the application hands the library its saved session, and whom the library gives the new token.
SETUP = {
    "authlib": ("OAuth2Session(token=saved)", "then update_token gets the new token"),
    "authlib-async": ("AsyncOAuth2Client(token=saved)", "then awaits update_token with the new token"),
    "requests-oauthlib": ("OAuth2Session(token=saved, auto_refresh_url=...)", "then token_updater gets the new token"),
    "requests-oauth2client": ("OAuth2AccessTokenAuth(client, BearerToken(saved))",
                              "the handler then holds the new token"),
}

(library,) = case_argument([(library,) for library in LIBRARIES], "restored_session.py <library>")
watchdog()


def restored(expires_in):
    """A saved session whose access token expires `expires_in` seconds from now, handed to the
    library, and one call: (server, app, whether the library sent nothing when given the session)."""
    valid = {"at-1"}

    def token(request):
        if request.field("grant_type") == "refresh_token" and request.field("refresh_token") == "rt-1":
            valid.add("at-2")
            return token_answer("at-2", 3600, "rt-2")
        return error_answer("invalid_grant")

    server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
    saved = {"access_token": "at-1", "token_type": "Bearer", "refresh_token": "rt-1", "expires_at": int(now()) + expires_in}
    app = application(library, server, token=saved, grant="tokens")
    quiet = not server.made()
    step("call: GET /resource")
    outcome(app.call)
    return server, app, quiet


step(f"{library}: 1. a saved session whose access token is valid for an hour")
server, app, quiet_valid = restored(3600)
sent = server.made()
used_as_is = [(r.path, r.headers.get("Authorization")) for r in sent] == [("/resource", "Bearer at-1")]

step(f"{library}: 2. a saved session whose access token expired ten seconds ago")
server, app, quiet_expired = restored(-10)
sent = server.made()
unprinted = {k: v for k, v in sent[0].form.items() if k not in PRINTED_FIELDS} if sent else {}
if unprinted:  # what else the token request carried (requests-oauthlib: the call's keyword arguments)
    step(f"  the token request's other form fields: {unprinted}")
held = app.held()
updates = getattr(app, "updates", None)  # requests-oauth2client hands the new token to no callback
step(f"  the library now holds access_token={held.get('access_token')!r}, refresh_token={held.get('refresh_token')!r}"
     + (f"; its callback got {[u.get('access_token') for u in updates]}" if updates is not None else ""))
refreshed_first = (len(sent) == 2 and sent[0].path == "/token" and sent[0].field("grant_type") == "refresh_token"
                   and sent[0].field("refresh_token") == "rt-1" and sent[1].path == "/resource"
                   and sent[1].headers.get("Authorization") == "Bearer at-2")
kept = (held.get("access_token") == "at-2" and held.get("refresh_token") == "rt-2"
        and (updates is None or (bool(updates) and updates[-1].get("access_token") == "at-2")))

given, then = SETUP[library]
quiet = quiet_valid and quiet_expired
verdict(quiet and used_as_is and refreshed_first and kept,
        f"{given} sends nothing when given the session, uses a valid saved access token as is, and refreshes an "
        f"expired one with the saved refresh token before the call ({then})",
        f"{library}: restored without a request: {quiet}; valid token used as is: {used_as_is}; expired one "
        f"refreshed first: {refreshed_first}; new token kept{'' if updates is None else ' and handed over'}: {kept}")
