"""Which ID tokens does the library's relying-party code accept at sign-in? Case: <library>
<case>...: each case signs in once against a provider of its own whose ID token for the code
grant is changed as the case says; then the application calls the resource (and, for
no-id-token, userinfo) with the access token the sign-in gave. The profiles' reasons say, per
library and case, whether the sign-in is accepted, refused, or crashes; that is what is checked.

  aud-other-azp-client  aud "another-client", azp the client's id
  iss-other             iss "https://attacker.example"
  no-iss | no-sub | no-aud | no-exp | no-iat | no-nonce   that claim left out
  iat-future            iat an hour ahead
  iat-30s-ahead         iat 30 s ahead (beyond a declared skew of 0 s)
  several-aud-no-azp    aud [the client, "another-client"], no azp
  no-kid                no kid in the header (the JWKS holds a single key)
  hs256 | rs256 | es256 | ps256   signed with that algorithm (HS256: MACed with the client secret)
  no-id-token           the token response has no id_token"""

import sys
import time

from openid_provider import OpenIDProvider
from relying_parties import relying_party
from throwaway_server import outcome, step, verdict, watchdog

OTHER = "https://attacker.example"


def change(case):
    def tweak(grant, claims, header):
        if grant != "authorization_code":
            return None
        now = int(time.time())
        if case == "aud-other-azp-client":
            claims["aud"], claims["azp"] = "another-client", claims["aud"]
        elif case == "iss-other":
            claims["iss"] = OTHER
        elif case.startswith("no-") and case[3:] in ("iss", "sub", "aud", "exp", "iat", "nonce"):
            claims.pop(case[3:], None)
        elif case == "iat-future":
            claims["iat"] = now + 3600
        elif case == "iat-30s-ahead":
            claims["iat"] = now + 30
        elif case == "several-aud-no-azp":
            claims["aud"] = [claims["aud"], "another-client"]
        elif case == "no-kid":
            header.pop("kid", None)
        elif case in ("hs256", "rs256", "es256", "ps256"):
            header["alg"] = case.upper()
        elif case == "no-id-token":
            return False
        return None

    return tweak


# What each library's reason says happens: accepted (the sign-in succeeds and its access token is
# used), refused (the library raises its refusal), crash (an unexpected error, AttributeError).
EXPECTED = {
    "authlib": {"aud-other-azp-client": "accepted", "hs256": "refused", "rs256": "accepted", "es256": "accepted",
                "ps256": "accepted", "no-id-token": "accepted"},
    "requests-oauth2client": {"iss-other": "accepted", "no-iss": "accepted", "no-sub": "accepted", "no-aud": "accepted",
                              "no-exp": "accepted", "no-iat": "accepted", "iat-future": "accepted",
                              "iat-30s-ahead": "accepted", "no-nonce": "crash", "several-aud-no-azp": "accepted",
                              "no-kid": "refused", "no-id-token": "accepted"},
}


def probe(library, case):
    # The discovery document names the case's algorithm beside RS256; the JWKS holds the RSA key,
    # and the EC key too for es256.
    algs = (case.upper(), "RS256") if case in ("hs256", "es256", "ps256") else ("RS256",)
    provider = OpenIDProvider(id_token=change(case), algs=algs)
    rp = relying_party(library, provider, alg=case.upper() if case in ("hs256", "es256", "ps256") else "RS256")
    step(f"{library}, case {case}: sign in")
    _, raised = outcome(rp.sign_in)
    if raised is None:
        step("  the application calls the resource with the sign-in's access token")
        response, _ = outcome(rp.call)
        if case == "no-id-token":
            step("  and asks for userinfo")
            outcome(rp.userinfo)
        used = any(r.path == "/resource" and r.headers.get("Authorization") for r in provider.server.requests)
        seen = "accepted" if used and response is not None and response.status_code == 200 else "accepted, not used"
    else:
        seen = "crash" if isinstance(raised, (AttributeError, KeyError, TypeError)) else "refused"
    detail = f"{seen}" + (f" ({type(raised).__name__}: {str(raised)[:120]})" if raised is not None else "")
    return seen == EXPECTED[library][case], f"{case}: {detail}", f"{case}: {detail}, not {EXPECTED[library][case]}"


arguments = sys.argv[1:]
if len(arguments) < 2 or arguments[0] not in EXPECTED or not set(arguments[1:]) <= set(EXPECTED[arguments[0]]):
    print("usage: id_token_checks.py <library> <case>...; cases: "
          + "; ".join(f"{library}: {' '.join(cases)}" for library, cases in EXPECTED.items()), file=sys.stderr)
    sys.exit(2)
library = arguments[0]
watchdog(18)
results = [probe(library, case) for case in arguments[1:]]
verdict(all(ok for ok, _, _ in results), f"{library}'s ID token checks at sign-in: " + "; ".join(c for _, c, _ in results),
        f"{library}: " + "; ".join(o for ok, _, o in results if not ok))
