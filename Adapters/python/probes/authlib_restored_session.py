"""Probe: authlib's OAuth2Session takes a saved session through its token= argument without a
request, uses a valid one as is, and refreshes an expired one with its refresh token before the
call (OAuth2Session.request -> ensure_active_token, authlib/oauth2/client.py:323-331), handing the
new token to update_token. Run: .venv/bin/python probes/authlib_restored_session.py"""

import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from probe_server import NEW_ACCESS_TOKEN, NEW_REFRESH_TOKEN, SAVED_ACCESS_TOKEN, SAVED_REFRESH_TOKEN, ProbeServer, finish

from authlib.integrations.requests_client import OAuth2Session


def session(server, token, updates):
    return OAuth2Session(client_id="probe-client", client_secret="probe-secret", token_endpoint=f"{server.base}/token",
                         token=token, update_token=lambda new, refresh_token=None, access_token=None: updates.append(dict(new)))


with ProbeServer() as server:
    updates = []
    print("1. a saved session whose access token is valid for an hour")
    valid = session(server, {"access_token": SAVED_ACCESS_TOKEN, "token_type": "Bearer", "refresh_token": SAVED_REFRESH_TOKEN,
                             "expires_at": time.time() + 3600}, updates)
    restored_quietly = not server.requests
    first = valid.get(f"{server.base}/resource", timeout=5)
    print(f"  surfaced: {first.status_code}")
    used_as_is = not server.token_requests() and server.requests[-1][3] == f"Bearer {SAVED_ACCESS_TOKEN}"

    print("2. a saved session whose access token expired ten seconds ago")
    server.requests.clear()
    expired = session(server, {"access_token": SAVED_ACCESS_TOKEN, "token_type": "Bearer", "refresh_token": SAVED_REFRESH_TOKEN,
                               "expires_at": time.time() - 10}, updates)
    restored_quietly = restored_quietly and not server.requests
    second = expired.get(f"{server.base}/resource", timeout=5)
    print(f"  surfaced: {second.status_code}; update_token got {[u.get('access_token') for u in updates]}")
    sent = server.requests
    refreshed_first = (len(sent) == 2 and sent[0][1] == "/token" and sent[0][2].get("grant_type") == "refresh_token"
                       and sent[0][2].get("refresh_token") == SAVED_REFRESH_TOKEN and sent[1][3] == f"Bearer {NEW_ACCESS_TOKEN}")
    kept = expired.token.get("refresh_token") == NEW_REFRESH_TOKEN and updates and updates[-1]["access_token"] == NEW_ACCESS_TOKEN

finish(restored_quietly and used_as_is and refreshed_first and kept and first.status_code == second.status_code == 200,
       "OAuth2Session(token=saved) sends nothing when given the session, uses a valid saved access token as is, and refreshes "
       "an expired one with the saved refresh token before the call (then update_token gets the new token)",
       f"restored without a request: {restored_quietly}; valid token used as is: {used_as_is}; expired one refreshed first: "
       f"{refreshed_first}; new token kept and handed to update_token: {bool(kept)}")
