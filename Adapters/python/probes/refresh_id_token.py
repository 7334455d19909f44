"""Does the library validate the ID token of a refresh response? Case: <library>
<other-user | other-issuer>: the sign-in's ID token is right (and validated); the access tokens
live 10 s, inside the library's refresh window, so the application's next call refreshes; the
refresh response carries an ID token for sub "mallory", or from iss https://attacker.example.
The probe reports whether the library refused the refresh or kept its tokens and used them."""

import base64
import json

from openid_provider import OpenIDProvider
from relying_parties import relying_party
from throwaway_server import case_argument, outcome, step, verdict, watchdog

library, case = case_argument([(library, case) for library in ("authlib", "requests-oauth2client")
                               for case in ("other-user", "other-issuer")], "refresh_id_token.py <library> <other-user|other-issuer>")
watchdog()


def tweak(grant, claims, header):
    if grant == "refresh_token":
        if case == "other-user":
            claims["sub"] = "mallory"
        else:
            claims["iss"] = "https://attacker.example"


def claims_of(id_token):
    if not id_token:
        return None
    payload = id_token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


provider = OpenIDProvider(id_token=tweak, access_lifetime=10)
rp = relying_party(library, provider)
step(f"{library}: sign in (access tokens live 10 s)")
_, raised = outcome(rp.sign_in)
if raised is not None:
    verdict(False, "", f"the sign-in itself failed: {raised!r}")
step("the application's next call: GET /resource (the library refreshes first)")
response, raised = outcome(rp.call)
refreshes = provider.server.count("/token", grant_type="refresh_token")
held = claims_of(rp.held_id_token())
step(f"  the library now holds an ID token for sub={held and held.get('sub')!r}, iss={held and held.get('iss')!r}")
used = [r.headers.get("Authorization") for r in provider.server.made("/resource")]
what = "sub mallory" if case == "other-user" else "iss https://attacker.example"
verdict(refreshes == 1 and raised is None and used == ["Bearer at-2"],
        f"{library} never validates the ID token of a refresh response: it refreshed, kept the new tokens (ID token with "
        f"{what}) and used the new access token",
        f"{library}: {refreshes} refresh(es); the call {'raised ' + repr(raised) if raised else 'succeeded'}; resource "
        f"requests with {used}")
