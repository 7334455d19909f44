"""Does the library check the iss of an authorization response (RFC 9207) before redeeming its
code? Case: <library> <omit | other>...: the provider's redirect back carries no iss, or
iss=https://attacker.example; its code and state are right. The probe's provider is the issuer
(its own URL); the library is set up as its documentation does for RFC 9207 where it has a
setting for it (requests-oauth2client: issuer and authorization_response_iss_parameter_supported).
Several variants run one after the other."""

import sys
from urllib.parse import urlencode

from applications import LIBRARIES, REDIRECT_URI, code_flow
from throwaway_server import Server, outcome, step, token_answer, verdict, watchdog


def probe(library, variant):
    server = Server({"/token": lambda request: token_answer("at-1", 3600, "rt-1")}, name="provider")
    flow = code_flow(library, server, issuer=server.url)
    url, state = flow.authorization_url()
    parameters = {"code": "code-1", "state": state}
    if variant == "other":
        parameters["iss"] = "https://attacker.example"
    redirect = f"{REDIRECT_URI}?{urlencode(parameters)}"
    step(f"{library}: the browser comes back to {redirect}")
    outcome(flow.redeem, redirect)
    redeemed = [r for r in server.made("/token") if r.field("code") == "code-1"]
    shown = "without iss" if variant == "omit" else "with iss=https://attacker.example"
    return bool(redeemed), f"a response {shown} is accepted and its code redeemed", \
        f"a response {shown} was refused, its code never redeemed"


arguments = sys.argv[1:]
if len(arguments) < 2 or arguments[0] not in LIBRARIES or not set(arguments[1:]) <= {"omit", "other"}:
    print("usage: authorization_response_issuer.py <library> <omit|other>...", file=sys.stderr)
    sys.exit(2)
library = arguments[0]
watchdog()
results = [probe(library, variant) for variant in arguments[1:]]
verdict(all(ok for ok, _, _ in results),
        f"{library} does not check the authorization response's iss (RFC 9207): " + "; ".join(c for _, c, _ in results),
        f"{library}: " + "; ".join(o for ok, _, o in results if not ok))
