"""What does the library keep when a refresh response does not carry a usable refresh token?
Case: <library> <omit | null | empty>...: the refresh response leaves refresh_token out, or sends
"refresh_token": null, or "refresh_token": "" (RFC 6749 §6: the client keeps its refresh token
when no new one is issued). Several variants run one after the other, each against a server of
its own; the claim is confirmed when it holds for each.

The application holds an expired access token and refresh token rt-1. The first refresh answers
at-2 living 1 s, with the refresh token as the case says; the probe waits 2 s so that at-2 has
expired for every library (none refreshes later than at expiry), then calls again: the library
refreshes with whatever refresh token it kept, or cannot. The token endpoint refuses a refresh
without refresh_token (invalid_request) or with one it never issued (invalid_grant)."""

import time

from applications import LIBRARIES, application
from throwaway_server import (Server, bearer_resource, error_answer, json_answer, now, outcome, step, variants_argument,
                              verdict_of_all, watchdog)


def probe(variant):
    """One variant against a server of its own: (confirmed, claim, what happened otherwise)."""
    valid = set()
    server = None

    def token(request):
        presented = request.field("refresh_token")
        if presented is None:
            return error_answer("invalid_request", 400, description="refresh_token missing")
        if presented != "rt-1":
            return error_answer("invalid_grant", 400, description="unknown refresh token")
        number = server.count("/token", grant_type="refresh_token")
        document = {"access_token": f"at-{number + 1}", "token_type": "Bearer", "expires_in": 1}
        if variant != "omit":
            document["refresh_token"] = None if variant == "null" else ""
        valid.add(document["access_token"])
        return json_answer(document)

    server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
    app = application(library, server, token={"access_token": "at-1", "refresh_token": "rt-1", "token_type": "Bearer",
                                              "expires_at": int(now()) - 10})
    shown = {"omit": "no refresh_token", "null": '"refresh_token": null', "empty": '"refresh_token": ""'}[variant]
    step(f"{library}: the held access token expired 10 s ago; refresh token rt-1. A refresh answers at-2 (1 s) with {shown}.")
    step("call 1: GET /resource")
    outcome(app.call)
    kept = app.held().get("refresh_token")
    step(f"  the library now holds refresh_token={kept!r}")
    time.sleep(2)
    step("call 2, after at-2 expired: GET /resource")
    _, raised = outcome(app.call)
    step(f"  the library now holds refresh_token={app.held().get('refresh_token')!r}")

    refreshes = server.made("/token", grant_type="refresh_token")
    second = refreshes[1] if len(refreshes) > 1 else None
    second_sent = "no second refresh" if second is None else (
        "a second refresh without refresh_token" if second.field("refresh_token") is None
        else f"a second refresh with refresh_token={second.field('refresh_token')!r}")
    step(f"after the first refresh: {second_sent}; call 2 {'raised ' + type(raised).__name__ if raised else 'succeeded'}")

    if library == "requests-oauthlib":
        expected = second is not None and not second.field("refresh_token")
        claim = f'stores {shown} over the refresh token it had ({kept!r}); the next refresh goes out without one'
    elif library.startswith("authlib"):
        expected = second is None and raised is not None
        claim = f"stores {shown} over the refresh token it had ({kept!r}), and cannot refresh again ({type(raised).__name__})"
    elif library == "google-auth-oauthlib" and variant == "null":
        # _handle_refresh_grant_response: response_data.get("refresh_token", refresh_token).
        expected = second is None and raised is not None
        claim = (f"stores {shown} over the refresh token it had ({kept!r}), and cannot refresh again "
                 f"({type(raised).__name__}: the credentials lack a refresh_token)")
    elif library == "google-auth-oauthlib":
        expected = second is not None and second.field("refresh_token") == ""
        claim = f"stores {shown} over the refresh token it had ({kept!r}) and sends the empty refresh token at the next refresh"
    elif variant == "empty":
        expected = second is not None and second.field("refresh_token") == ""
        claim = f'replaces the whole token with the refresh response and sends the empty refresh token at the next refresh'
    else:
        expected = second is None and raised is not None
        claim = (f"replaces the whole token with the refresh response ({shown}): it holds no refresh token, so at the next "
                 f"expiry the call fails with {type(raised).__name__}")
    return kept != "rt-1" and expected, f"{library} {claim}", \
        f"{library} holds refresh_token={kept!r} after a refresh answer with {shown}; then {second_sent}"

VARIANTS = ("omit", "null", "empty")
library, variants = variants_argument(dict.fromkeys(LIBRARIES, VARIANTS),
                                      "refresh_token_retention.py <library> <omit|null|empty>...")
watchdog(11 + 3 * len(variants))
results = [probe(variant) for variant in variants]
verdict_of_all(results)
