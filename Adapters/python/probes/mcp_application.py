"""What the MCP SDK probes share: a throwaway MCP server with its authorization server on one
127.0.0.1 origin, and the application of the SDK's documentation (docs/client/oauth-clients.md,
docs_src/oauth_clients/tutorial001.py): an OAuthClientProvider with an in-memory TokenStorage and
the two handlers, on an httpx2.AsyncClient(follow_redirects=True), handed to streamable_http_client
under mcp.Client. Nothing of the harness or of the adapter.

The server: POST /mcp is a minimal Streamable HTTP MCP server (initialize, tools/list, tools/call,
notifications answered 202, any other method -32601) that takes the access tokens in `valid_tokens`
and answers anything else 401 with `WWW-Authenticate: Bearer resource_metadata="…"`; a method named
in `method_scopes` needs that scope among the token's (`token_scopes`), else 403
`insufficient_scope` naming it (the MCP spec's step-up), and GET /resource likewise for the scope
named as "resource"; its Protected Resource
Metadata (RFC 9728) at the path-based well-known URL; the authorization server's RFC 8414 metadata
at the root one (`metadata` overrides its members, a None removes one); /token answered by the
probe's handler; GET /resource a plain bearer resource taking the same tokens. The "browser" is the
application's own redirect_handler: it reads state from the authorization URL and the
callback_handler returns code-1 with that state and the server's iss, as the authorization server's
redirect would carry them."""

import asyncio
import json
from urllib.parse import parse_qs, urlsplit

import httpx2
from pydantic import AnyUrl

from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata

from throwaway_server import Answer, Server, json_answer, step

CLIENT_ID, CLIENT_SECRET = "probe-client", "probe-client-secret"
REDIRECT_URI = "http://127.0.0.1:3030/callback"


class MCPServer:
    def __init__(self, token, metadata=None, method_scopes=None):
        self.valid_tokens = set()
        self.token_scopes = {}
        self.method_scopes = method_scopes or {}
        self.metadata = metadata or {}
        self.server = Server({
            "/mcp": self.mcp,
            "/.well-known/oauth-protected-resource/mcp": self.protected_resource_metadata,
            "/.well-known/oauth-authorization-server": self.authorization_server_metadata,
            "/token": token,
            "/resource": self.resource,
        }, name="server")
        self.url = self.server.url
        self.mcp_url = self.server.to("/mcp")

    def authorized(self, request):
        scheme, _, token = (request.headers.get("Authorization") or "").partition(" ")
        return scheme.lower() == "bearer" and token in self.valid_tokens

    def challenge(self):
        metadata = self.server.to("/.well-known/oauth-protected-resource/mcp")
        return Answer(401, b"", {"WWW-Authenticate": f'Bearer resource_metadata="{metadata}"'})

    def mcp(self, request):
        if request.method != "POST":
            return Answer(405, b"")
        if not self.authorized(request):
            return self.challenge()
        message = json.loads(request.body)
        if "id" not in message:
            return Answer(202, b"")
        method = message.get("method")
        needed = self.method_scopes.get(method)
        token = request.headers["Authorization"].partition(" ")[2]
        if needed and needed not in self.token_scopes.get(token, "").split():
            return Answer(403, b"", {"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{needed}", '
                                     f'resource_metadata="{self.server.to("/.well-known/oauth-protected-resource/mcp")}"'})
        if method == "initialize":
            result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                      "serverInfo": {"name": "probe-mcp-server", "version": "0"}}
        elif method == "tools/list":
            result = {"tools": []}
        elif method == "tools/call":
            result = {"content": [], "isError": False}
        else:
            return json_answer({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}})
        return json_answer({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def resource(self, request):
        if not self.authorized(request):
            return self.challenge()
        needed = self.method_scopes.get("resource")
        if needed and needed not in self.token_scopes.get(request.headers["Authorization"].partition(" ")[2], "").split():
            return Answer(403, b"", {"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{needed}"'})
        return json_answer({"ok": True})

    def protected_resource_metadata(self, request):
        return json_answer({"resource": self.mcp_url, "authorization_servers": [self.url]})

    def authorization_server_metadata(self, request):
        document = {
            "issuer": self.url, "authorization_endpoint": self.server.to("/authorize"),
            "token_endpoint": self.server.to("/token"), "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
        }
        document.update(self.metadata)
        return json_answer({name: value for name, value in document.items() if value is not None})


class Storage:
    """The docs' InMemoryTokenStorage, holding the pre-registered client's information."""

    def __init__(self, tokens=None):
        self.tokens = tokens
        self.client_info = OAuthClientInformationFull(
            client_id=CLIENT_ID, client_secret=CLIENT_SECRET, token_endpoint_auth_method="client_secret_basic",
            redirect_uris=[AnyUrl(REDIRECT_URI)])

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


class Application:
    """The SDK's documented client: the provider on the application's one httpx2.AsyncClient."""

    def __init__(self, server, storage=None):
        self.server = server
        self.storage = storage or Storage()
        self.browser_opened = []
        self.provider = OAuthClientProvider(
            server_url=server.mcp_url,
            client_metadata=OAuthClientMetadata(client_name="probe", redirect_uris=[AnyUrl(REDIRECT_URI)]),
            storage=self.storage, redirect_handler=self.open_browser, callback_handler=self.wait_for_callback)
        self.http = httpx2.AsyncClient(auth=self.provider, follow_redirects=True, timeout=5)

    async def open_browser(self, authorization_url):
        step(f"  (redirect_handler: the SDK opens {authorization_url.split('?')[0]})")
        self.browser_opened.append(authorization_url)

    async def wait_for_callback(self):
        # The user consents: the authorization server redirects back with a code, the state, its iss.
        state = parse_qs(urlsplit(self.browser_opened[-1]).query)["state"][0]
        return AuthorizationCodeResult(code="code-1", state=state, iss=self.server.url)

    async def list_tools(self):
        """The docs' main(): connect, list the tools."""
        async with Client(streamable_http_client(self.server.mcp_url, http_client=self.http)) as client:
            return await client.list_tools()

    async def call_tool(self, name):
        """Connect, call one tool."""
        async with Client(streamable_http_client(self.server.mcp_url, http_client=self.http)) as client:
            return await client.call_tool(name, {})

    async def get(self, path):
        """A call through the application's one client, whose auth is the provider."""
        return await self.http.get(self.server.server.to(path))

    async def close(self):
        await self.http.aclose()


async def attempt(what, coroutine):
    """Awaits `coroutine` as the application does, prints what it returned or raised (out of the
    task groups that carried it), and gives back (result, exception)."""
    step(what)
    try:
        result = await asyncio.wait_for(coroutine, 8)
    except BaseException as exception:  # noqa: BLE001 - an application's catch-all around the SDK
        exception = innermost(exception)
        message = " ".join(str(exception).split())[:300]
        step(f"  <- raised {type(exception).__module__}.{type(exception).__name__}: {message}")
        return None, exception
    shown = f"HTTP {result.status_code}" if hasattr(result, "status_code") else type(result).__name__
    step(f"  <- returned {shown}")
    return result, None


def innermost(exception):
    while isinstance(exception, BaseExceptionGroup):
        exception = exception.exceptions[0]
    return exception
