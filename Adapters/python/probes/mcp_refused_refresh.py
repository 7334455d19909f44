"""What does the MCP SDK make of a refresh that does not give it a token? The application signs in
(a one-second access token and a refresh token), waits out the token, and calls GET /resource
through its client, whose auth is the SDK's provider. The token endpoint answers the refresh with
the case: invalid_grant (400, RFC 6749 §5.2), 503 (an HTML error page), error-body-200 (an error
object with status 200), no-access-token (200 without access_token), expires-in-soon (200 with
"expires_in": "soon"), expires-in-fractional (200 with "expires_in": 7199.5). The claim: the SDK
surfaces none of it to the application; it forgets its tokens, sends the call without
Authorization, and on the 401 starts a new interactive sign-in (its redirect_handler is called
again), so that the application sees either a new consent prompt or the call succeeding after it."""

import asyncio
import time

from mcp_application import Application, MCPServer, attempt
from throwaway_server import Answer, case_argument, error_answer, html_answer, json_answer, verdict, watchdog

REFRESH_ANSWERS = {
    ("invalid_grant",): lambda: error_answer("invalid_grant", description="the refresh token was revoked"),
    ("503",): lambda: html_answer(503),
    ("error-body-200",): lambda: json_answer({"error": "invalid_grant"}),
    ("no-access-token",): lambda: json_answer({"token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt-2"}),
    ("expires-in-soon",): lambda: json_answer({"access_token": "at-2", "token_type": "Bearer", "expires_in": "soon", "refresh_token": "rt-2"}),
    ("expires-in-fractional",): lambda: json_answer({"access_token": "at-2", "token_type": "Bearer", "expires_in": 7199.5, "refresh_token": "rt-2"}),
}


async def main(case):
    server = None
    codes = iter(("at-1", "at-3"))

    def token(request):
        if request.field("grant_type") == "refresh_token":
            return REFRESH_ANSWERS[case]()
        access_token = next(codes)
        server.valid_tokens.add(access_token)
        return json_answer({"access_token": access_token, "token_type": "Bearer", "expires_in": 1, "refresh_token": "rt-1"})

    server = MCPServer(token)
    app = Application(server)
    await attempt("the application signs in: its first MCP call (list the tools)", app.list_tools())
    time.sleep(1.5)
    server.valid_tokens.discard("at-1")  # expired at the server too
    _, error = await attempt(f"1.5 s later (the access token expired) it calls GET /resource; the refresh is answered {case[0]}", app.get("/resource"))
    await app.close()
    made = server.server.requests
    refresh = next((i for i, r in enumerate(made) if r.field("grant_type") == "refresh_token"), None)
    bare = refresh is not None and any(r.path == "/resource" and "Authorization" not in r.headers for r in made[refresh:])
    signed_in_again = len(app.browser_opened) == 2
    verdict(refresh is not None and bare and signed_in_again and error is None,
            f"a refresh answered {case[0]} is not surfaced: the SDK drops its tokens, sends the call without "
            "Authorization, and on the 401 opens a new interactive sign-in (redirect_handler called again)",
            f"refresh sent: {refresh is not None}; call sent without Authorization after it: {bare}; "
            f"authorization URLs opened: {len(app.browser_opened)}; surfaced: {type(error).__name__ if error else 'nothing'}")


case = case_argument(REFRESH_ANSWERS, "mcp_refused_refresh.py <" + "|".join(c[0] for c in REFRESH_ANSWERS) + ">")
watchdog()
asyncio.run(main(case))
