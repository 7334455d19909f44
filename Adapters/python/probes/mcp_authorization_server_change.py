"""Does the MCP SDK keep a pre-registered client ID to the authorization server it was registered
with? MCP authorization (2026-07-28, Client Registration: Authorization Server Binding): a client
must associate pre-registered credentials with the authorization server that issued them, must not
reuse them at another when the server's Protected Resource Metadata names a new one, and should
surface an error rather than silently try them there. The probe's MCP server first names its root
authorization server, where the application (the SDK's documented one, its storage holding the
pre-registered client information, mcp_application.py) signs in and lists the tools; then its
metadata names a second authorization server (issuer <origin>/as2, no registration endpoint) and
it refuses the first server's token, and the application lists the tools again."""

import asyncio
from urllib.parse import parse_qs, urlsplit

from mcp.client.auth import AuthorizationCodeResult

from mcp_application import CLIENT_ID, Application, MCPServer, attempt
from throwaway_server import error_answer, json_answer, step, verdict, watchdog


async def main():
    server = None

    def token(request):
        server.valid_tokens.add("at-1")
        return json_answer({"access_token": "at-1", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt-1"})

    server = MCPServer(token)
    second_issuer = server.server.to("/as2")
    moved = {"yes": False}

    def protected_resource_metadata(request):
        named = second_issuer if moved["yes"] else server.url
        return json_answer({"resource": server.mcp_url, "authorization_servers": [named]})

    def second_metadata(request):
        return json_answer({
            "issuer": second_issuer, "authorization_endpoint": second_issuer + "/authorize",
            "token_endpoint": second_issuer + "/token", "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
        })

    server.server.routes["/.well-known/oauth-protected-resource/mcp"] = protected_resource_metadata
    server.server.routes["/.well-known/oauth-authorization-server/as2"] = second_metadata
    server.server.routes["/as2/token"] = lambda request: error_answer("invalid_client", status=401)

    app = Application(server)

    async def callback():
        # The user consents at whichever server the SDK sent them to; its redirect carries that iss.
        opened = app.browser_opened[-1]
        state = parse_qs(urlsplit(opened).query)["state"][0]
        return AuthorizationCodeResult(
            code="code-1", state=state, iss=second_issuer if "/as2/" in opened else server.url)

    app.provider.context.callback_handler = callback
    await attempt("the application lists the tools (signed in at the first authorization server)", app.list_tools())
    step("the MCP server moves: its metadata names the second authorization server, the first's token is refused")
    moved["yes"] = True
    server.valid_tokens.clear()
    result, error = await attempt("the application lists the tools again", app.list_tools())
    await app.close()
    at_second = [url for url in app.browser_opened if url.startswith(second_issuer + "/authorize")]
    carried = [url for url in at_second if parse_qs(urlsplit(url).query).get("client_id") == [CLIENT_ID]]
    verdict(bool(carried),
            f"after the move the SDK sends the user to the second authorization server with the client ID "
            f"pre-registered at the first ({CLIENT_ID}), without an error: pre-registered client information "
            "carries no issuer, and credentials without one are kept whatever the server (credentials_match_issuer)",
            f"the SDK did not take its pre-registered client ID to the second server "
            f"({'raised ' + type(error).__name__ if error else 'returned'}; authorization URLs: {app.browser_opened})")


watchdog()
asyncio.run(main())
