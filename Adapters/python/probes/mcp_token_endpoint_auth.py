"""Does the MCP SDK register with a token endpoint authentication method the authorization server
offers? RFC 8414 §2: token_endpoint_auth_methods_supported lists the methods the token endpoint
supports; RFC 7591 §2: a client registers the one it will use (client_secret_basic when it names
none), and §3.2.2 lets the server refuse one it does not support. Case: client_secret_post or none,
the only method the probe's authorization server lists. The application is the SDK's documented
one (mcp_application.py) with no client information stored, so that the SDK registers by itself at
the registration_endpoint; the server refuses a registration that asks for another method."""

import asyncio
import json

from mcp_application import Application, MCPServer, Storage, attempt
from throwaway_server import case_argument, error_answer, json_answer, verdict, watchdog

CASES = {("client_secret_post",): "client_secret_post", ("none",): "none"}


async def main(case):
    offered = CASES[case]
    server = None
    registrations = []

    def token(request):
        server.valid_tokens.add("at-1")
        return json_answer({"access_token": "at-1", "token_type": "Bearer", "expires_in": 3600})

    def register(request):
        metadata = json.loads(request.body)
        registrations.append(metadata)
        asked = metadata.get("token_endpoint_auth_method", "client_secret_basic")
        if asked != offered:
            return error_answer("invalid_client_metadata", description=f"token_endpoint_auth_method {asked} is not offered")
        answer = dict(metadata, client_id="registered-1", token_endpoint_auth_method=offered)
        if offered != "none":
            answer["client_secret"] = "registered-secret"
        return json_answer(answer, status=201)

    server = MCPServer(token, metadata={
        "registration_endpoint": None, "token_endpoint_auth_methods_supported": [offered]})
    server.metadata["registration_endpoint"] = server.server.to("/register")
    server.server.routes["/register"] = register
    storage = Storage()
    storage.client_info = None
    app = Application(server, storage)
    result, error = await attempt(
        f"the application lists the tools; the authorization server lists token_endpoint_auth_methods_supported [{offered}]",
        app.list_tools())
    await app.close()
    asked = [metadata.get("token_endpoint_auth_method", "(none named: client_secret_basic)") for metadata in registrations]
    verdict(bool(registrations) and all(method != offered for method in asked),
            f"the SDK registers asking for {', '.join(asked)}, not the one method the server lists ({offered}): "
            "it never reads token_endpoint_auth_methods_supported, and the registration is refused",
            f"the SDK registered for {asked or 'nothing'} ({'raised ' + type(error).__name__ if error else 'returned'})")


case = case_argument(CASES, "mcp_token_endpoint_auth.py <client_secret_post|none>")
watchdog()
asyncio.run(main(case))
