"""Which scope does the MCP SDK ask the user for? The MCP spec (2026-07-28, Scope Selection
Strategy) has a client take the scope from the 401's WWW-Authenticate, else from the Protected
Resource Metadata's scopes_supported, else omit it; and (Step-Up Authorization Flow) retry a step-up
"no more than a few times", bounded across calls as well as within one. Cases:

- undefined: neither the 401 nor the Protected Resource Metadata names a scope; the authorization
  server's metadata lists scopes_supported. Does the authorization request carry a scope?
- step-up-across-calls: tools/call needs files:write, which the authorization server never grants;
  the application calls it three times, each its own connection. How often is the user asked?
- resource-insufficient-scope: GET /resource (no MCP server, a plain resource the application
  calls through its one client) answers 403 insufficient_scope naming a scope never granted. RFC
  6750 §3.1 has the application decide; does the SDK re-authorize and replay instead?

The application is the SDK's documented one (mcp_application.py)."""

import asyncio
from urllib.parse import parse_qs, urlsplit

from mcp_application import Application, MCPServer, attempt
from throwaway_server import case_argument, json_answer, step, verdict, watchdog

CASES = {("undefined",): None, ("step-up-across-calls",): None, ("resource-insufficient-scope",): None}
CALLS = 3


def scope_of(url):
    return parse_qs(urlsplit(url).query).get("scope", [None])[0]


async def undefined():
    server = None

    def token(request):
        server.valid_tokens.add("at-1")
        return json_answer({"access_token": "at-1", "token_type": "Bearer", "expires_in": 3600})

    server = MCPServer(token, metadata={"scopes_supported": ["openid", "profile"]})
    app = Application(server)
    await attempt("the application lists the tools; no scope in the 401 nor in the Protected Resource Metadata, "
                  "the authorization server's metadata lists scopes_supported [openid, profile]", app.list_tools())
    await app.close()
    scopes = [scope_of(url) for url in app.browser_opened]
    step(f"scope of each authorization request: {scopes}")
    verdict(scopes == ["openid profile"],
            "with no scope in the 401 nor in the Protected Resource Metadata, the SDK asks for the authorization "
            "server's scopes_supported (scope=openid profile) instead of omitting scope",
            f"the authorization requests' scopes were {scopes}")


async def step_up_across_calls():
    server = None
    issued = []

    def token(request):
        # The authorization server grants what was asked for, never files:write.
        asked = " ".join(s for s in (server.token_scopes_asked or "").split() if s != "files:write")
        access_token = f"at-{len(issued) + 1}"
        issued.append(access_token)
        server.valid_tokens.add(access_token)
        server.token_scopes[access_token] = asked
        return json_answer({"access_token": access_token, "token_type": "Bearer", "expires_in": 3600, "scope": asked})

    server = MCPServer(token, method_scopes={"tools/call": "files:write"})
    server.token_scopes_asked = None
    app = Application(server)
    original = app.open_browser

    async def open_browser(url):
        server.token_scopes_asked = scope_of(url) or "files:read"
        await original(url)

    app.provider.context.redirect_handler = open_browser
    await attempt("the application lists the tools (its sign-in)", app.list_tools())
    signed_in = len(app.browser_opened)
    for number in range(1, CALLS + 1):
        await attempt(f"call {number}: the application calls a tool needing files:write, which is never granted",
                      app.call_tool("write"))
    await app.close()
    step_ups = len(app.browser_opened) - signed_in
    step(f"authorization requests: {len(app.browser_opened)} ({signed_in} for the sign-in), "
         f"scopes {[scope_of(url) for url in app.browser_opened]}")
    verdict(step_ups >= CALLS,
            f"the SDK asks the user to authorize again at every call ({step_ups} step-ups for {CALLS} calls): its "
            "step-up is bounded within a call only, never remembering a scope the user was refused",
            f"{step_ups} step-up authorization(s) for {CALLS} calls")


async def resource_insufficient_scope():
    server = None
    issued = []

    def token(request):
        access_token = f"at-{len(issued) + 1}"
        issued.append(access_token)
        server.valid_tokens.add(access_token)
        server.token_scopes[access_token] = "files:read"
        return json_answer({"access_token": access_token, "token_type": "Bearer", "expires_in": 3600, "scope": "files:read"})

    server = MCPServer(token, method_scopes={"resource": "admin"})
    app = Application(server)
    await attempt("the application lists the tools (its sign-in)", app.list_tools())
    signed_in, tokens = len(app.browser_opened), server.server.count("/token")
    response, _ = await attempt("it calls GET /resource, which answers 403 insufficient_scope (scope admin)", app.get("/resource"))
    await app.close()
    asked = len(app.browser_opened) - signed_in
    redeemed = server.server.count("/token") - tokens
    calls = server.server.count("/resource")
    step(f"after the sign-in: {asked} authorization request(s), {redeemed} token request(s), {calls} resource request(s)")
    verdict(asked == 1 and redeemed == 1 and calls == 2,
            "on a 403 insufficient_scope from any resource its provider authenticates, the SDK asks the user to "
            "authorize again (scope step-up), redeems a new code and replays the request, instead of handing the 403 "
            "to the application",
            f"{asked} authorization request(s), {redeemed} token request(s), {calls} resource request(s); "
            f"the call: {getattr(response, 'status_code', None)}")


case = case_argument(CASES, "mcp_scope_selection.py <undefined|step-up-across-calls|resource-insufficient-scope>")
watchdog()
asyncio.run({("undefined",): undefined, ("step-up-across-calls",): step_up_across_calls,
             ("resource-insufficient-scope",): resource_insufficient_scope}[case]())
