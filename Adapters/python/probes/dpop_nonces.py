"""How does the library follow DPoP nonces (RFC 9449 §8, §9)? Case: requests-oauth2client
<case>, the client made as the README's "Using DPoP" shows (OAuth2Client(...,
dpop_bound_access_tokens=True)), its tokens applied by OAuth2AccessTokenAuth on a requests.Session:

  new-nonce-every-time   the token endpoint answers every request use_dpop_nonce with a new nonce;
                         one client_credentials sign-in
  nonce-from-success     token endpoint and resource share one nonce that moves after every accepted
                         proof, the next one handed out in DPoP-Nonce of each answer, success
                         included; a password sign-in, two calls and a refresh
  token-nonce-per-key    the token endpoint demands one fixed nonce; two client_credentials sign-ins
  resource-nonce-to-token  the resource demands a nonce (rs-nonce-1), the token endpoint none;
                         access tokens live 10 s (inside the handler's 20 s leeway, so each call
                         refreshes first); a password sign-in and two calls
  bearer-answer          the token endpoint answers a proof with token_type Bearer; a
                         client_credentials sign-in and a call

The probe decodes each proof (the DPoP header's JWT payload, unverified) and prints its nonce."""

import base64
import itertools
import json

from applications import CLIENT_ID, CLIENT_SECRET, PASSWORD, USERNAME
from throwaway_server import Answer, Server, case_argument, error_answer, json_answer, outcome, step, verdict, watchdog

CASES = ("new-nonce-every-time", "nonce-from-success", "token-nonce-per-key", "resource-nonce-to-token", "bearer-answer")
_, case = case_argument([("requests-oauth2client", c) for c in CASES], "dpop_nonces.py requests-oauth2client <case>")
watchdog()
counter = itertools.count(1)
state = {"nonce": "n-1", "used": set(), "stale": []}  # stale: requests whose nonce was used up when they came


def proof_claims(request):
    proof = request.headers.get("DPoP")
    if not proof:
        return {}
    payload = proof.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def nonce_of(request):
    return proof_claims(request).get("nonce")


def token_document(token_type="DPoP", expires_in=3600):
    number = next(counter)
    return {"access_token": f"at-{number}", "token_type": token_type, "expires_in": expires_in, "refresh_token": "rt-1"}


def token(request):
    step(f"     token request's proof nonce: {nonce_of(request)!r}")
    if case == "new-nonce-every-time":
        fresh = f"n-{next(counter)}"
        return error_answer("use_dpop_nonce", 400, headers={"DPoP-Nonce": fresh})
    if case == "token-nonce-per-key" and nonce_of(request) != "n-1":
        return error_answer("use_dpop_nonce", 400, headers={"DPoP-Nonce": "n-1"})
    if case == "nonce-from-success":
        note_stale(request)
        if nonce_of(request) != state["nonce"]:
            return error_answer("use_dpop_nonce", 400, headers={"DPoP-Nonce": state["nonce"]})
        return json_answer(token_document(), headers={"DPoP-Nonce": move()})
    if case == "bearer-answer":
        return json_answer(token_document("Bearer"))
    if case == "resource-nonce-to-token":
        return json_answer(token_document(expires_in=10))
    return json_answer(token_document())


def note_stale(request):
    if nonce_of(request) in state["used"]:
        state["stale"].append(request)
        step(f"     (nonce {nonce_of(request)!r} was used up: the server moved on and said so in DPoP-Nonce)")


def move():
    state["used"].add(state["nonce"])
    state["nonce"] = f"n-{next(counter) + 100}"
    return state["nonce"]


def resource(request):
    authorization = request.headers.get("Authorization") or ""
    step(f"     resource request's proof nonce: {nonce_of(request)!r}")
    if not authorization.startswith("DPoP "):
        return Answer(401, b"", {"WWW-Authenticate": 'DPoP error="invalid_token", error_description="not DPoP-bound"'})
    if case == "nonce-from-success":
        note_stale(request)
        if nonce_of(request) != state["nonce"]:
            return Answer(401, b"", {"WWW-Authenticate": 'DPoP error="use_dpop_nonce"', "DPoP-Nonce": state["nonce"]})
        return json_answer({"ok": True}, headers={"DPoP-Nonce": move()})
    if case == "resource-nonce-to-token" and nonce_of(request) != "rs-nonce-1":
        return Answer(401, b"", {"WWW-Authenticate": 'DPoP error="use_dpop_nonce"', "DPoP-Nonce": "rs-nonce-1"})
    if case == "bearer-answer":
        return Answer(401, b"", {"WWW-Authenticate": 'DPoP error="invalid_token", error_description="not DPoP-bound"'})
    return json_answer({"ok": True})


server = Server({"/token": token, "/resource": resource}, name="provider")

import requests  # noqa: E402
from requests_oauth2client import OAuth2AccessTokenAuth, OAuth2Client  # noqa: E402

client = OAuth2Client(token_endpoint=server.to("/token"), client_id=CLIENT_ID, client_secret=CLIENT_SECRET, testing=True,
                      dpop_bound_access_tokens=True)
session = requests.Session()


def sign_in(grant):
    step(f"sign in ({grant} grant, with a DPoP proof)")
    token, raised = outcome(client.client_credentials if grant == "client_credentials" else
                            (lambda: client.resource_owner_password(username=USERNAME, password=PASSWORD)))
    if token is not None:
        session.auth = OAuth2AccessTokenAuth(client, token)
        step(f"  the library holds a {type(token).__name__} (token_type {token.token_type!r})")
    return token, raised


def call(attempt):
    step(f"call {attempt}: GET /resource")
    return outcome(session.get, server.to("/resource"), timeout=5)


tokens = server.made("/token")
if case == "new-nonce-every-time":
    _, raised = sign_in("client_credentials")
    tokens = server.made("/token")
    verdict(len(tokens) == 3 and type(raised).__name__ == "InvalidTokenResponse",
            "a token endpoint that hands out a new nonce every time gets three token requests (two retries) before "
            f"InvalidTokenResponse ({raised})",
            f"{len(tokens)} token requests; the sign-in {'raised ' + repr(raised) if raised else 'succeeded'}")
elif case == "nonce-from-success":
    sign_in("password")
    call(1)
    call(2)
    step("the handler renews the token, as it does at expiry: OAuth2AccessTokenAuth.renew_token()")
    outcome(session.auth.renew_token)
    stale = state["stale"]
    step(f"{len(stale)} of {len(server.requests)} requests carried a nonce already used up when they came")
    verdict(len(stale) >= 1,
            "a DPoP-Nonce is read from errors only, never from a successful answer: the next request carries the "
            f"used-up nonce, is refused use_dpop_nonce and retried ({len(stale)} requests came with a used-up nonce)",
            "no request carried a used-up nonce")
elif case == "token-nonce-per-key":
    sign_in("client_credentials")
    sign_in("client_credentials")
    tokens = server.made("/token")
    firsts = [nonce_of(r) for r in tokens]
    verdict(len(tokens) == 4 and firsts[2] is None,
            "the token endpoint's nonce lives on the per-request DPoPKey: the second client_credentials request starts "
            f"with a new key without the nonce, is refused use_dpop_nonce again and retried ({len(tokens)} token "
            "requests, not 3)",
            f"{len(tokens)} token requests, their proofs' nonces {firsts}")
elif case == "resource-nonce-to-token":
    sign_in("password")
    call(1)
    call(2)
    refreshes = server.made("/token", grant_type="refresh_token")
    carried = [nonce_of(r) for r in refreshes]
    verdict("rs-nonce-1" in carried,
            "the resource's nonce reaches the token endpoint: a refresh after the resource's use_dpop_nonce carries "
            "rs-nonce-1 in its proof, to a server that never issued it",
            f"the refreshes' proofs carried nonces {carried}")
else:
    token, raised = sign_in("client_credentials")
    call(1)
    sent = [r.headers.get("Authorization", "") for r in server.made("/resource")]
    verdict(raised is None and token is not None and type(token).__name__ == "DPoPToken"
            and sent and all(s.startswith("DPoP ") for s in sent),
            "a Bearer answer to a DPoP proof is neither refused nor used as Bearer: it becomes a DPoPToken, and the "
            "unbound token goes out with Authorization: DPoP and a proof",
            f"the sign-in {'raised ' + repr(raised) if raised else 'gave ' + type(token).__name__}; resource requests "
            f"with {sent}")
