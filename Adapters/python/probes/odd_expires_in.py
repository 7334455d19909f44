"""What does the library make of an odd expires_in? Case: <library> <value> [on-refresh].

At sign-in (no third argument; -60, soon or 1099511627776): every token response (sign-in and
refresh) carries that expires_in. The application signs in with the password grant, then calls
the resource twice at once after it (no time passes).

On a refresh (on-refresh; 0, -60, soon or 1099511627776): the sign-in states an ordinary, if
short, lifetime (1 s, waited out: probes have no virtual clock), and every refresh response
carries the odd expires_in. The application calls the resource three times: the first call
refreshes, as it must; a conforming library uses the new token for the next two without
refreshing again.

The probe reports what the sign-in and each call did and how many refreshes went out. What each
library is claimed to do (the profiles' reasons) is the expectation checked:
  at sign-in
  requests-oauthlib -60   each call refreshes, finds the new token expired too, TokenExpiredError
  authlib(-async)  -60    it refreshes before every request (two refreshes for two calls)
  authlib(-async)  soon   fetch_token raises ValueError; no token is kept
  requests-oauth2client -60  every call renews, finds the new token expired, ExpiredAccessToken
  requests-oauth2client 1099511627776  the sign-in fails with InvalidTokenResponse (OverflowError)
  on a refresh (three calls, three refreshes in every case)
  requests-oauthlib 0     expires_in 0 is dropped as if absent: the refreshed token keeps the
                          sign-in's expires_at, already past; each call fails with TokenExpiredError
  requests-oauthlib -60   the refreshed token is expired on arrival: TokenExpiredError at each call
  requests-oauthlib soon  each refresh raises ValueError; the expired token stays
  authlib(-async)  -60    the refreshed token is expired on arrival: each call refreshes (and succeeds)
  authlib(-async)  soon   each refresh raises ValueError; the expired token stays
  requests-oauth2client -60  the renewed token is expired on arrival: ExpiredAccessToken at each call
  requests-oauth2client 1099511627776  each renewal fails with InvalidTokenResponse (OverflowError);
                          the expired token stays
requests-oauthlib's "soon" at sign-in is call_after_failed_sign_in.py's expires-in-soon case."""

import time

from applications import LIBRARIES, application, calls
from throwaway_server import (Server, bearer_resource, case_argument, json_answer, outcome, step, verdict, watchdog)

VALUES = {"0": 0, "-60": -60, "soon": "soon", "1099511627776": 1099511627776}
AT_SIGN_IN = ("-60", "soon", "1099511627776")
library, value, *mode = case_argument(
    [(library, v) for library in LIBRARIES for v in AT_SIGN_IN]
    + [(library, v, "on-refresh") for library in LIBRARIES for v in VALUES],
    "odd_expires_in.py <library> <-60|soon|1099511627776> | <library> <0|-60|soon|1099511627776> on-refresh")
on_refresh = mode == ["on-refresh"]
watchdog()
valid = set()


def token(request):
    number = server.count("/token")
    valid.add(f"at-{number}")
    refresh = request.field("grant_type") == "refresh_token"
    expires_in = VALUES[value] if refresh or not on_refresh else 1
    return json_answer({"access_token": f"at-{number}", "token_type": "Bearer", "expires_in": expires_in,
                        "refresh_token": "rt-1"})


def overflow_in(error):
    """The OverflowError where parse_token_response's `except Exception` caught it: in the chain of
    the InvalidTokenResponse that on_token_error raised (as __context__, a link or two down)."""
    link = error
    while link is not None:
        if isinstance(link, OverflowError):
            return link
        link = link.__cause__ or link.__context__
    return None


server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
app = application(library, server)
if on_refresh:
    step(f"{library}: sign in (password grant, expires_in: 1); every refresh response says expires_in: {VALUES[value]!r}")
else:
    step(f"{library}: sign in (password grant); every token response says expires_in: {VALUES[value]!r}")
_, sign_in_error = outcome(app.sign_in)
held = app.held()
step(f"  the library holds {held or 'no token'}")
if on_refresh:
    signed_in_expiry = app.session._client._expires_at if library == "requests-oauthlib" else None
    step("wait 2.5 s: the signed-in access token expires")
    time.sleep(2.5)
errors = calls(app, times=3 if on_refresh else 2)
held = app.held()
step(f"  the library now holds {held or 'no token'}")
refreshes = server.count("/token", grant_type="refresh_token")
step(f"refreshes: {refreshes}")
names = [type(e).__name__ if e else None for e in errors]

if on_refresh:
    kept_expired = held.get("access_token") == "at-1"  # the refresh failed: nothing replaced the dead token
    if library == "requests-oauthlib" and value in ("0", "-60"):
        expiry = app.session._client._expires_at
        step(f"  oauthlib's _expires_at: {expiry} (the sign-in's was {signed_in_expiry}); time.time() = {time.time():.0f}")
        if value == "0":
            ok = names == ["TokenExpiredError"] * 3 and expiry == signed_in_expiry
            claim = ("a refresh response's expires_in 0 is dropped as if absent, so the refreshed token keeps the "
                     f"sign-in's expires_at ({expiry}), already past: each call refreshes and fails with TokenExpiredError")
        else:
            ok = names == ["TokenExpiredError"] * 3 and expiry < time.time()
            claim = ("a refresh response's negative expires_in makes the refreshed token expired on arrival: each call "
                     "refreshes again and fails with TokenExpiredError")
    elif value == "-60" and library.startswith("authlib"):
        ok = names == [None] * 3
        claim = ("a refresh response's negative expires_in makes the refreshed token expired on arrival: "
                 f"it refreshes again before every request ({refreshes} refreshes for 3 calls)")
    elif value == "-60":
        ok = names == ["ExpiredAccessToken"] * 3
        claim = ("a refresh response's negative expires_in gives an expires_at in the past: every call renews the "
                 "token, finds the new one expired as well, and fails with ExpiredAccessToken")
    elif value == "soon":
        ok = names == ["ValueError"] * 3 and kept_expired
        claim = (f"a refresh response's expires_in \"soon\" raises ValueError ({errors[0]}) at every call; the expired "
                 "token stays, so each call refreshes again")
    elif value == "1099511627776" and library == "requests-oauth2client":
        causes = [overflow_in(e) for e in errors]
        ok = names == ["InvalidTokenResponse"] * 3 and all(causes) and kept_expired
        claim = (f"a refresh response's expires_in {value} overflows ({type(causes[0]).__name__}: {causes[0]}), "
                 "which parse_token_response turns into InvalidTokenResponse: the renewal fails, the expired token "
                 "stays, and every call renews again")
    else:
        ok, claim = False, "(no claim for this library and value)"
    ok = ok and sign_in_error is None and refreshes == 3
elif value == "-60" and library == "requests-oauthlib":
    ok = sign_in_error is None and refreshes == 2 and names == ["TokenExpiredError"] * 2
    claim = ("a negative expires_in makes the token expired on arrival: each call refreshes, finds the new token "
             "expired too, and fails with TokenExpiredError")
elif value == "-60" and library.startswith("authlib"):
    ok = sign_in_error is None and refreshes == 2
    claim = f"a negative expires_in makes the token expired on arrival: it refreshes before every request ({refreshes} refreshes for 2 calls)"
elif value == "-60":
    ok = sign_in_error is None and refreshes == 2 and names == ["ExpiredAccessToken"] * 2
    claim = ("a negative expires_in gives an expires_at in the past: every call renews the token, finds the new one "
             "expired as well, and fails with ExpiredAccessToken")
elif value == "soon":
    ok = isinstance(sign_in_error, ValueError) and not held.get("access_token")
    claim = f'fetch_token raises ValueError ({sign_in_error}) on expires_in "soon": the sign-in fails and no token is kept'
else:
    cause = overflow_in(sign_in_error)
    step(f"  the chain of {type(sign_in_error).__name__}: {type(cause).__name__ if cause else 'no OverflowError'}")
    ok = type(sign_in_error).__name__ == "InvalidTokenResponse" and cause is not None
    claim = (f"expires_in {value} overflows ({type(cause).__name__}: {cause}); the library turns that into "
             "InvalidTokenResponse, so the sign-in fails instead of clamping")
verdict(ok, f"{library}: {claim}",
        f"{library}: sign-in {'raised ' + repr(sign_in_error) if sign_in_error else 'succeeded'}; calls {names}; "
        f"{refreshes} refreshes")
