"""What does the library report when the token endpoint answers a refresh with a server error
page (HTML, 5xx)? Case: <library> <status>...: each status in turn (500, 502, 503, 504), against a
server of its own. The application holds an access token that expired 10 s ago and calls once."""

from applications import LIBRARIES, application
from throwaway_server import Server, html_answer, now, outcome, step, variants_argument, verdict, watchdog


def probe(library, status):
    server = Server({"/token": lambda request: html_answer(int(status))}, name="provider")
    app = application(library, server, token={"access_token": "at-1", "refresh_token": "rt-1", "token_type": "Bearer",
                                              "expires_at": int(now()) - 10})
    step(f"{library}: the held access token expired 10 s ago; the token endpoint answers {status} with an HTML page")
    _, raised = outcome(app.call)
    return raised, server.count("/token", grant_type="refresh_token")


library, statuses = variants_argument(dict.fromkeys(LIBRARIES, ("500", "502", "503", "504")),
                                      "token_endpoint_error_page.py <library> <500|502|503|504>...")
watchdog()
results = {status: probe(library, status) for status in statuses}
names = {status: type(raised).__name__ for status, (raised, _) in results.items()}
if library == "google-auth-oauthlib":
    # reauth.refresh_grant: a body that is not JSON is raised as RefreshError(body, retryable=False).
    tries = {status: refreshes for status, (_, refreshes) in results.items()}
    verdict(all(name == "RefreshError" and raised.retryable is False and str(raised).startswith("<html>")
                for (raised, _), name in zip(results.values(), names.values())),
            f"{library}: an HTML error page from the token endpoint ({', '.join(results)}) is raised as RefreshError with "
            f"the page as its message, retryable=False and no status (refresh requests per status: {tries})",
            f"{library} raised {names}")
verdict(all(name == "MissingTokenError" and "Missing access token parameter" in str(raised) and refreshes == 1
            for (raised, refreshes), name in zip(results.values(), names.values())),
        f"{library}: an HTML error page from the token endpoint ({', '.join(results)}) is reported as MissingTokenError "
        '("Missing access token parameter"), not as a server error',
        f"{library} raised {names}")
