"""Probe: requests-oauth2client takes a saved session as its OAuth2AccessTokenAuth example shows
(a BearerToken built by the application, "an initial Access Token, if you have one already")
without a request, uses a valid one as is, and renews an expired one with its refresh token before
the call (OAuth2AccessTokenAuth.__call__ -> renew_token -> OAuth2Client.refresh_token,
requests_oauth2client/auth.py:72-94). Run: .venv/bin/python probes/requests_oauth2client_restored_session.py"""

import sys
from datetime import datetime, timedelta, timezone

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from probe_server import NEW_ACCESS_TOKEN, NEW_REFRESH_TOKEN, SAVED_ACCESS_TOKEN, SAVED_REFRESH_TOKEN, ProbeServer, finish

import requests
from requests_oauth2client import BearerToken, OAuth2AccessTokenAuth, OAuth2Client


def handler(server, expires_in_seconds):
    client = OAuth2Client(token_endpoint=f"{server.base}/token", client_id="probe-client", client_secret="probe-secret",
                          testing=True)  # the library's switch for http:// endpoints
    token = BearerToken(access_token=SAVED_ACCESS_TOKEN, refresh_token=SAVED_REFRESH_TOKEN,
                        expires_at=datetime.now(tz=timezone.utc) + timedelta(seconds=expires_in_seconds))
    return OAuth2AccessTokenAuth(client, token)


with ProbeServer() as server:
    print("1. a saved session whose access token is valid for an hour")
    valid = handler(server, 3600)
    quiet = not server.requests
    first = requests.get(f"{server.base}/resource", auth=valid, timeout=5)
    print(f"  surfaced: {first.status_code}")
    used_as_is = not server.token_requests() and server.requests[-1][3] == f"Bearer {SAVED_ACCESS_TOKEN}"

    print("2. a saved session whose access token expired ten seconds ago")
    server.requests.clear()
    expired = handler(server, -10)
    quiet = quiet and not server.requests
    second = requests.get(f"{server.base}/resource", auth=expired, timeout=5)
    print(f"  surfaced: {second.status_code}; the handler now holds {expired.token.access_token}")
    sent = server.requests
    refreshed_first = (len(sent) == 2 and sent[0][1] == "/token" and sent[0][2].get("grant_type") == "refresh_token"
                       and sent[0][2].get("refresh_token") == SAVED_REFRESH_TOKEN and sent[1][3] == f"Bearer {NEW_ACCESS_TOKEN}")
    kept = expired.token.access_token == NEW_ACCESS_TOKEN and expired.token.refresh_token == NEW_REFRESH_TOKEN

finish(quiet and used_as_is and refreshed_first and kept and first.status_code == second.status_code == 200,
       "OAuth2AccessTokenAuth(client, BearerToken(saved)) sends nothing when given the session, uses a valid saved access token "
       "as is, and renews an expired one with the saved refresh token before the call (the handler then holds the new token)",
       f"restored without a request: {quiet}; valid token used as is: {used_as_is}; expired one refreshed first: "
       f"{refreshed_first}; new token held: {kept}")
