"""Does the MCP SDK refuse an authorization server that does not say it supports S256? The MCP
spec (2026-07-28, Security Considerations: Authorization Code Protection) says a client must verify
PKCE support and refuse to proceed when code_challenge_methods_supported is absent; it must use
S256. Case: absent (the metadata has no code_challenge_methods_supported) or plain (it lists only
plain). The probe's MCP server answers the application's first call 401; the application is the
SDK's documented one (mcp_application.py)."""

import asyncio
import sys

from mcp_application import Application, MCPServer, attempt
from throwaway_server import case_argument, json_answer, verdict, watchdog

CASES = {("absent",): None, ("plain",): ["plain"]}


async def main(case):
    server = None

    def token(request):
        server.valid_tokens.add("at-1")
        return json_answer({"access_token": "at-1", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt-1"})

    server = MCPServer(token, metadata={"code_challenge_methods_supported": CASES[case]})
    app = Application(server)
    shown = "without code_challenge_methods_supported" if case == ("absent",) else "listing only plain"
    result, error = await attempt(f"the application lists the tools; the authorization server's metadata is {shown}", app.list_tools())
    await app.close()
    sent = [url for url in app.browser_opened if "code_challenge_method=S256" in url]
    verdict(bool(sent) and server.server.count("/token") == 1,
            f"with authorization server metadata {shown}, the SDK sends the user to the authorization endpoint "
            "(code_challenge_method=S256) and redeems the code: it never reads code_challenge_methods_supported",
            f"the SDK did not go on to authorize ({'raised ' + type(error).__name__ if error else 'returned'}; "
            f"{len(app.browser_opened)} authorization URL(s), {server.server.count('/token')} token request(s))")


case = case_argument(CASES, "mcp_pkce_methods.py <absent|plain>")
watchdog()
asyncio.run(main(case))
