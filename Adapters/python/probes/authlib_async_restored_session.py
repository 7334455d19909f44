"""Probe: authlib's AsyncOAuth2Client (httpx) takes a saved session through its token= argument
without a request, uses a valid one as is, and refreshes an expired one with its refresh token
before the call (AsyncOAuth2Client.request -> ensure_active_token under its anyio lock,
authlib/integrations/httpx_client/oauth2_client.py:112-123, 140-155), awaiting update_token with
the new token. Run: .venv/bin/python probes/authlib_async_restored_session.py"""

import asyncio
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from probe_server import NEW_ACCESS_TOKEN, NEW_REFRESH_TOKEN, SAVED_ACCESS_TOKEN, SAVED_REFRESH_TOKEN, ProbeServer, finish

from authlib.integrations.httpx_client import AsyncOAuth2Client


async def main(server):
    updates = []

    async def update_token(new, refresh_token=None, access_token=None):
        updates.append(dict(new))

    def client(expires_at):
        return AsyncOAuth2Client(client_id="probe-client", client_secret="probe-secret", token_endpoint=f"{server.base}/token",
                                 token={"access_token": SAVED_ACCESS_TOKEN, "token_type": "Bearer",
                                        "refresh_token": SAVED_REFRESH_TOKEN, "expires_at": expires_at},
                                 update_token=update_token, timeout=5,
                                 trust_env=False)  # no proxy or CA settings of the machine

    print("1. a saved session whose access token is valid for an hour")
    async with client(time.time() + 3600) as valid:
        quiet = not server.requests
        first = await valid.get(f"{server.base}/resource")
    print(f"  surfaced: {first.status_code}")
    used_as_is = not server.token_requests() and server.requests[-1][3] == f"Bearer {SAVED_ACCESS_TOKEN}"

    print("2. a saved session whose access token expired ten seconds ago")
    server.requests.clear()
    async with client(time.time() - 10) as expired:
        quiet = quiet and not server.requests
        second = await expired.get(f"{server.base}/resource")
        held = dict(expired.token)
    print(f"  surfaced: {second.status_code}; update_token got {[u.get('access_token') for u in updates]}")
    sent = server.requests
    refreshed_first = (len(sent) == 2 and sent[0][1] == "/token" and sent[0][2].get("grant_type") == "refresh_token"
                       and sent[0][2].get("refresh_token") == SAVED_REFRESH_TOKEN and sent[1][3] == f"Bearer {NEW_ACCESS_TOKEN}")
    kept = held.get("refresh_token") == NEW_REFRESH_TOKEN and bool(updates) and updates[-1]["access_token"] == NEW_ACCESS_TOKEN
    return quiet, used_as_is, refreshed_first, kept, first.status_code == second.status_code == 200


with ProbeServer() as server:
    quiet, used_as_is, refreshed_first, kept, answered = asyncio.run(asyncio.wait_for(main(server), 15))

finish(quiet and used_as_is and refreshed_first and kept and answered,
       "AsyncOAuth2Client(token=saved) sends nothing when given the session, uses a valid saved access token as is, and "
       "refreshes an expired one with the saved refresh token before the call (then awaits update_token with the new token)",
       f"restored without a request: {quiet}; valid token used as is: {used_as_is}; expired one refreshed first: "
       f"{refreshed_first}; new token kept and handed to update_token: {kept}")
