"""What does the MCP SDK surface when the user denies consent? The authorization server redirects
back with error=access_denied, the state and its iss, and no code (RFC 6749 §4.1.2.1). The SDK's
callback_handler returns an AuthorizationCodeResult (code: str, state, iss; mcp/shared/auth.py:45-54),
which has no member for the error: the application hands over what it has, an empty code with the
state and iss. (The docs' own wait_for_callback reads params["code"][0] and would raise KeyError.)
Then the application calls GET /resource."""

import asyncio
from urllib.parse import parse_qs, urlsplit

from mcp.client.auth import AuthorizationCodeResult

from mcp_application import Application, MCPServer, attempt
from throwaway_server import json_answer, verdict, watchdog


class DeniedApplication(Application):
    async def wait_for_callback(self):
        # The redirect back: ?error=access_denied&state=…&iss=… (no code).
        state = parse_qs(urlsplit(self.browser_opened[-1]).query)["state"][0]
        return AuthorizationCodeResult(code="", state=state, iss=self.server.url)


async def main():
    server = MCPServer(lambda request: json_answer({"access_token": "at-1", "token_type": "Bearer", "expires_in": 3600}))
    app = DeniedApplication(server)
    _, error = await attempt("the application signs in (lists the tools); the user denies consent", app.list_tools())
    await attempt("then it calls GET /resource", app.get("/resource"))
    await app.close()
    message = str(error) if error else ""
    bare = any(r.path == "/resource" and "Authorization" not in r.headers for r in server.server.requests)
    verdict(error is not None and "access_denied" not in message and not hasattr(error, "error") and bare,
            f"a denied consent surfaces as {type(error).__name__}({message!r}), without access_denied (the callback's "
            "result has no member for the error), and the next call goes without Authorization",
            f"raised {type(error).__name__ if error else 'nothing'}: {message[:120]}; call without Authorization: {bare}")


watchdog()
asyncio.run(main())
