"""What does the library make of an odd expires_in? Case: <library> <-60 | soon | 1099511627776>:
every token response (sign-in and refresh) carries that expires_in. The application signs in
with the password grant, then calls the resource twice at once after it (no time passes); the
probe reports what the sign-in and each call did and how many refreshes went out.

What each library is claimed to do (the profiles' reasons) is the expectation checked:
  requests-oauthlib -60   each call refreshes, finds the new token expired too, TokenExpiredError
  authlib(-async)  -60    it refreshes before every request (two refreshes for two calls)
  authlib(-async)  soon   fetch_token raises ValueError; no token is kept
  requests-oauth2client -60  every call renews, finds the new token expired, ExpiredAccessToken
  requests-oauth2client 1099511627776  the sign-in fails with InvalidTokenResponse (OverflowError)
requests-oauthlib's "soon" is call_after_failed_sign_in.py's expires-in-soon case."""

from applications import LIBRARIES, application
from throwaway_server import (Server, bearer_resource, case_argument, json_answer, outcome, step, verdict, watchdog)

VALUES = {"-60": -60, "soon": "soon", "1099511627776": 1099511627776}
library, value = case_argument([(library, v) for library in LIBRARIES for v in VALUES],
                               "odd_expires_in.py <library> <-60|soon|1099511627776>")
watchdog()
valid = set()


def token(request):
    number = server.count("/token")
    valid.add(f"at-{number}")
    return json_answer({"access_token": f"at-{number}", "token_type": "Bearer", "expires_in": VALUES[value],
                        "refresh_token": "rt-1"})


server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
app = application(library, server)
step(f"{library}: sign in (password grant); every token response says expires_in: {VALUES[value]!r}")
_, sign_in_error = outcome(app.sign_in)
step(f"  the library holds {app.held() or 'no token'}")
errors = []
for attempt in (1, 2):
    step(f"call {attempt}: GET /resource")
    errors.append(outcome(app.call)[1])
refreshes = server.count("/token", grant_type="refresh_token")
step(f"refreshes: {refreshes}")
names = [type(e).__name__ if e else None for e in errors]

if value == "-60" and library == "requests-oauthlib":
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
    ok = isinstance(sign_in_error, ValueError) and not app.held().get("access_token")
    claim = f'fetch_token raises ValueError ({sign_in_error}) on expires_in "soon": the sign-in fails and no token is kept'
else:
    # The OverflowError is where parse_token_response's `except Exception` caught it: in the
    # chain of the InvalidTokenResponse that on_token_error raised (as __context__, a link or two down).
    cause, link = None, sign_in_error
    while link is not None and cause is None:
        cause = link if isinstance(link, OverflowError) else None
        link = link.__cause__ or link.__context__
    step(f"  the chain of {type(sign_in_error).__name__}: {type(cause).__name__ if cause else 'no OverflowError'}")
    ok = type(sign_in_error).__name__ == "InvalidTokenResponse" and isinstance(cause, OverflowError)
    claim = (f"expires_in {value} overflows ({type(cause).__name__}: {cause}); the library turns that into "
             "InvalidTokenResponse, so the sign-in fails instead of clamping")
verdict(ok, f"{library}: {claim}",
        f"{library}: sign-in {'raised ' + repr(sign_in_error) if sign_in_error else 'succeeded'}; calls {names}; "
        f"{refreshes} refreshes")
