"""How long and how fresh is the nonce the library puts in an OpenID authentication request?
Case: <library>: two authorization requests, as two sign-ins make them; the probe reads the
nonce of each (the scenario asks for at least 22 characters, 128 bits of a 64-letter alphabet,
and a new one each time)."""

import math
from urllib.parse import parse_qs, urlsplit

from openid_provider import OpenIDProvider
from relying_parties import relying_party
from throwaway_server import case_argument, step, verdict, watchdog

(library,) = case_argument([("authlib",), ("requests-oauth2client",)], "nonce_entropy.py <library>")
watchdog()
provider = OpenIDProvider()
rp = relying_party(library, provider)
nonces = []
for attempt in (1, 2):
    url = rp.authorization_request()
    nonce = parse_qs(urlsplit(url).query)["nonce"][0]
    step(f"authorization request {attempt}: nonce {nonce!r} ({len(nonce)} characters)")
    nonces.append(nonce)
alphabet = 62 if all(n.isalnum() for n in nonces) else 64
bits = min(len(n) for n in nonces) * math.log2(alphabet)
verdict(nonces[0] != nonces[1] and min(len(n) for n in nonces) < 22,
        f"{library}'s nonce is fresh for every request but {len(nonces[0])} characters of {alphabet}, about {bits:.0f} bits, "
        "fewer than the 22 characters (128 bits) asked for",
        f"{library}'s nonces: {nonces}")
