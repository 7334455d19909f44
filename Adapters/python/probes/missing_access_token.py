"""What does the library do with a token response that has no access_token? Case: <library>
<password | client_credentials | refresh>...: the sign-in's response by that grant lacks
access_token (the rest of it as usual: token_type, expires_in 3600, a refresh token), or, for
refresh, the first refresh's response does (the application holding an access token that
expired 10 s ago). The application then calls the resource, twice. Several variants run one
after the other, each against a server of its own."""

from applications import LIBRARIES, application, calls
from throwaway_server import (Server, bearer_resource, json_answer, now, outcome, step, variants_argument, verdict_of_all,
                              watchdog)


def probe(library, variant):
    valid = set()

    def token(request):
        number = server.count("/token")
        document = {"access_token": f"at-{number}", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt-1"}
        if number == 1:
            del document["access_token"]
        else:
            valid.add(document["access_token"])
        return json_answer(document)

    server = Server({"/token": token, "/resource": bearer_resource(valid)}, name="provider")
    if variant == "refresh":
        app = application(library, server, token={"access_token": "at-0", "refresh_token": "rt-1", "token_type": "Bearer",
                                                  "expires_at": int(now()) - 10})
        step(f"{library}: the held access token expired 10 s ago; the refresh answer has no access_token")
        sign_in_error = None
    else:
        app = application(library, server, grant=variant)
        step(f"{library}: sign in ({variant} grant); the token response has no access_token")
        _, sign_in_error = outcome(app.sign_in)
        step(f"  the library holds {app.held()}")
    errors = calls(app)
    names = [type(e).__name__ if e else None for e in errors]
    token_requests = server.count("/token")
    if library == "google-auth-oauthlib":
        # RefreshError("No access token in response.", response_data): the exception's text is
        # its arguments, the whole token response among them.
        return (variant == "refresh" and errors[0] is not None and "rt-1" in str(errors[0]),
                f"{variant}: a refresh response without access_token raises RefreshError whose message quotes the whole "
                f"response, its refresh token included ({' '.join(str(errors[0]).split())})",
                f"{variant}: calls raised {[str(e) for e in errors]}")
    ok = (sign_in_error is None and server.count("/resource") == 0 and token_requests == 1
          and all("Unsupported token_type: 'access_token'" in str(e) for e in errors))
    claim = ("takes the sign-in's response without access_token for a sign-in; the error comes only at the next call"
             if variant != "refresh" else "takes the refresh response without access_token, fails the call, and never "
             "refreshes again (its expires_at lies an hour ahead): the next call fails the same way")
    return ok, f"{variant}: {claim} ({names[0]} \"{errors[0]}\")" if variant == "password" else f"{variant}: {claim}", \
        f"{variant}: sign-in {'raised ' + repr(sign_in_error) if sign_in_error else 'succeeded'}, calls {names}, " \
        f"{token_requests} token requests, {server.count('/resource')} resource requests"


library, variants = variants_argument({**dict.fromkeys(LIBRARIES, ("password", "client_credentials", "refresh")),
                                       "google-auth-oauthlib": ("refresh",)},
                                      "missing_access_token.py <library> <password|client_credentials|refresh>...")
watchdog()
results = [probe(library, variant) for variant in variants]
verdict_of_all(results, lambda claims: f"{library}: {claims}", lambda failures: f"{library}: {failures}")
