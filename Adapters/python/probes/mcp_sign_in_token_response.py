"""What does the MCP SDK surface when the token response of its sign-in (the code's redemption) is
not a token, and what does the application's next call do? Case: invalid_grant (400 with the RFC
6749 §5.2 error), error-body-200 (the error object with status 200), truncated (a 200 whose JSON
body is cut after 25 bytes, inside the access token), expires-in-fractional ("expires_in": 7199.5),
expires-in-soon ("expires_in": "soon"). The application lists the tools (the sign-in), then calls GET /resource
through its client."""

import asyncio

from mcp_application import Application, MCPServer, attempt
from throwaway_server import Answer, case_argument, error_answer, json_answer, verdict, watchdog

TOKEN = '{"access_token": "at-secret-1", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt-1"}'
ANSWERS = {
    ("invalid_grant",): lambda: error_answer("invalid_grant", description="the code was already used"),
    ("error-body-200",): lambda: json_answer({"error": "invalid_grant"}),
    ("truncated",): lambda: Answer(200, TOKEN[:25], {"Content-Type": "application/json"}),
    ("expires-in-fractional",): lambda: json_answer({"access_token": "at-1", "token_type": "Bearer", "expires_in": 7199.5}),
    ("expires-in-soon",): lambda: json_answer({"access_token": "at-1", "token_type": "Bearer", "expires_in": "soon"}),
}


async def main(case):
    server = MCPServer(lambda request: ANSWERS[case]())
    app = Application(server)
    _, error = await attempt(f"the application signs in (lists the tools); the token endpoint answers {case[0]}", app.list_tools())
    await attempt("then it calls GET /resource", app.get("/resource"))
    await app.close()
    message = str(error) if error else ""
    bare = any(r.path == "/resource" and "Authorization" not in r.headers for r in server.server.requests)
    failed = error is not None
    if case == ("invalid_grant",):
        verdict(failed and not hasattr(error, "error") and "invalid_grant" in message and bare,
                f"the refused sign-in raises {type(error).__name__} with the RFC 6749 code only in its message "
                "(no attribute for it), and with no token the SDK sends the next call without Authorization",
                f"raised {type(error).__name__ if error else 'nothing'}: {message[:120]}; call without Authorization: {bare}")
    elif case == ("error-body-200",):
        verdict(failed and bare, "an error object with status 200 fails the sign-in as an invalid token response "
                "(a pydantic validation error), and the next call goes without Authorization",
                f"raised {type(error).__name__ if error else 'nothing'}; call without Authorization: {bare}")
    elif case == ("truncated",):
        verdict(failed and TOKEN[:25] in message and bare, "the error the SDK raises for a cut token response quotes the "
                "body it received, the access token as far as it came included (pydantic's input_value), and the next "
                "call goes without Authorization",
                f"raised {type(error).__name__ if error else 'nothing'}: {message[:160]}")
    else:
        verdict(failed and "expires_in" in message, f"a token response with expires_in {case[0][11:]} fails the "
                "sign-in: OAuthToken.expires_in is an int, and pydantic refuses the value",
                f"raised {type(error).__name__ if error else 'nothing'}: {message[:160]}")


case = case_argument(ANSWERS, "mcp_sign_in_token_response.py <" + "|".join(c[0] for c in ANSWERS) + ">")
watchdog()
asyncio.run(main(case))
