"""Probe: requests-oauthlib's OAuth2Session takes a saved session through its token= argument
without a request, uses a valid one as is, and, set up for automatic refresh (auto_refresh_url,
auto_refresh_kwargs, token_updater, as its docstring gives), refreshes an expired one with its
refresh token before the call: oauthlib's add_token raises TokenExpiredError once
expires_at < time.time() (oauthlib/oauth2/rfc6749/clients/base.py:215-216), and
OAuth2Session.request catches it, refreshes and calls token_updater (requests_oauthlib/
oauth2_session.py:532-559). Run: .venv/bin/python probes/requests_oauthlib_restored_session.py"""

import os
import sys
import time

os.environ["OAUTHLIB_INSECURE_TRANSPORT"] = "1"  # the probe's provider speaks plain HTTP on loopback
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from probe_server import NEW_ACCESS_TOKEN, NEW_REFRESH_TOKEN, SAVED_ACCESS_TOKEN, SAVED_REFRESH_TOKEN, ProbeServer, finish

from requests_oauthlib import OAuth2Session


def session(server, expires_at, updates):
    return OAuth2Session(client_id="probe-client",
                         token={"access_token": SAVED_ACCESS_TOKEN, "token_type": "Bearer", "refresh_token": SAVED_REFRESH_TOKEN,
                                "expires_at": expires_at},
                         auto_refresh_url=f"{server.base}/token",
                         auto_refresh_kwargs={"client_id": "probe-client", "client_secret": "probe-secret"},
                         token_updater=updates.append)


with ProbeServer() as server:
    updates = []
    print("1. a saved session whose access token is valid for an hour")
    valid = session(server, time.time() + 3600, updates)
    quiet = not server.requests
    first = valid.get(f"{server.base}/resource", timeout=5)
    print(f"  surfaced: {first.status_code}")
    used_as_is = not server.token_requests() and server.requests[-1][3] == f"Bearer {SAVED_ACCESS_TOKEN}"

    print("2. a saved session whose access token expired ten seconds ago")
    server.requests.clear()
    expired = session(server, time.time() - 10, updates)
    quiet = quiet and not server.requests
    second = expired.get(f"{server.base}/resource", timeout=5)
    print(f"  surfaced: {second.status_code}; token_updater got {[u.get('access_token') for u in updates]}")
    sent = server.requests
    refreshed_first = (len(sent) == 2 and sent[0][1] == "/token" and sent[0][2].get("grant_type") == "refresh_token"
                       and sent[0][2].get("refresh_token") == SAVED_REFRESH_TOKEN and sent[1][3] == f"Bearer {NEW_ACCESS_TOKEN}")
    kept = expired.token.get("refresh_token") == NEW_REFRESH_TOKEN and bool(updates) and updates[-1]["access_token"] == NEW_ACCESS_TOKEN

finish(quiet and used_as_is and refreshed_first and kept and first.status_code == second.status_code == 200,
       "OAuth2Session(token=saved, auto_refresh_url=...) sends nothing when given the session, uses a valid saved access token "
       "as is, and refreshes an expired one with the saved refresh token before the call (then token_updater gets the new token)",
       f"restored without a request: {quiet}; valid token used as is: {used_as_is}; expired one refreshed first: "
       f"{refreshed_first}; new token kept and handed to token_updater: {kept}")
