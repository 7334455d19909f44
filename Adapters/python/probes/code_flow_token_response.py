"""What does the library make of the code flow's token response when its expires_in or token_type
is odd? Case: <library> <variant>...: google-auth-oauthlib's Flow (authorization_url, fetch_token
with the redirect, then flow.credentials, as its documentation runs the web server flow) against
a token endpoint whose answer states
  missing   no expires_in            0     expires_in 0
  huge      expires_in 1099511627776 soon  expires_in "soon"
  -60       expires_in -60 (every token response, refreshes included)
  mac, N_A, DPoP  token_type mac, N_A (RFC 8693) or DPoP (RFC 9449), to a client without DPoP
with the rest as usual (an access token, refresh token rt-1). After the sign-in the application
calls the resource twice, through AuthorizedSession(flow.credentials). Several variants run one
after the other, each against a server of its own."""

from urllib.parse import urlencode

from applications import REDIRECT_URI, code_flow
from throwaway_server import (Server, bearer_resource, json_answer, outcome, step, variants_argument, verdict_of_all,
                              watchdog)

STATED = {"missing": ..., "0": 0, "huge": 1099511627776, "soon": "soon", "-60": -60}


def probe(library, variant):
    valid = set()

    def token(request):
        number = server.count("/token")
        document = {"access_token": f"at-{number}", "token_type": "Bearer", "refresh_token": "rt-1", "expires_in": 3600}
        if variant in STATED:
            document["expires_in"] = STATED[variant]
            if STATED[variant] is ...:
                del document["expires_in"]
        elif number == 1:
            document["token_type"] = variant
        valid.add(document["access_token"])
        return json_answer(document)

    server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
    flow = code_flow(library, server)
    _, state = flow.authorization_url()
    stated = f"token_type {variant!r}" if variant not in STATED else (
        "no expires_in" if variant == "missing" else f"expires_in {STATED[variant]!r}")
    step(f"{library}: the code flow's token response states {stated}")
    credentials, raised = outcome(flow.redeem, f"{REDIRECT_URI}?{urlencode({'code': 'code-1', 'state': state})}")
    if credentials is not None:
        from google.auth.transport.requests import AuthorizedSession

        session = AuthorizedSession(credentials)
        for attempt in (1, 2):
            step(f"call {attempt}: GET /resource")
            outcome(session.get, server.to("/resource"), timeout=5)
    redeemed = server.count("/token", grant_type="authorization_code")
    refreshes = server.count("/token", grant_type="refresh_token")
    sent = [r.headers.get("Authorization") for r in server.made("/resource")]
    happened = (f"{variant}: the sign-in {'raised ' + type(raised).__name__ + ': ' + str(raised) if raised else 'succeeded'}, "
                f"{redeemed} code redeemed, {refreshes} refreshes, resource calls {sent}")
    if variant in ("missing", "0"):
        return (isinstance(raised, KeyError) and str(raised) == "'expires_at'" and redeemed == 1,
                f"{stated}: the code is redeemed, then flow.credentials raises KeyError 'expires_at' and the sign-in fails",
                happened)
    if variant == "huge":
        return (isinstance(raised, (ValueError, OverflowError)) and "out of range" in str(raised) and redeemed == 1,
                f"{stated}: the code is redeemed, then flow.credentials fails ({type(raised).__name__}: {raised})", happened)
    if variant == "soon":
        return (isinstance(raised, ValueError) and "expires_in must be an int" in str(raised) and redeemed == 1,
                f"{stated}: the code is redeemed, then fetch_token raises ValueError \"expires_in must be an int\" and the "
                "sign-in fails", happened)
    if variant == "-60":
        return (raised is None and refreshes == 2 and len(sent) == 2,
                f"{stated}: the token is expired on arrival, so each of the two calls refreshes first ({refreshes} refreshes, "
                "each answered -60 again)", happened)
    return (raised is None and sent[:1] == ["Bearer at-1"],
            f"{stated}: the token is taken and sent to the resource as Bearer ({sent[0] if sent else None})", happened)


VARIANTS = ("missing", "0", "huge", "soon", "-60", "mac", "N_A", "DPoP")
library, variants = variants_argument({"google-auth-oauthlib": VARIANTS},
                                      "code_flow_token_response.py google-auth-oauthlib <" + "|".join(VARIANTS) + ">...")
watchdog()
results = [probe(library, variant) for variant in variants]
verdict_of_all(results, lambda claims: f"{library}: {claims}", lambda failures: f"{library}: {failures}")
