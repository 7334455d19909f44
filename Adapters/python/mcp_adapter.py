"""The MCP Python SDK's client authorization (mcp 2.3.0: mcp.client.auth.OAuthClientProvider) behind
the adapter protocol, driven as its documentation has an application do it
(docs/client/oauth-clients.md, docs_src/oauth_clients/tutorial001.py): an OAuthClientProvider with
the MCP server's URL, the client's metadata, a TokenStorage and the two handlers, as `auth=` of an
httpx2.AsyncClient (follow_redirects=True, as there), handed to streamable_http_client, that
transport to mcp.Client. The SDK signs in by itself: the first MCP request meets the server's 401,
and the provider discovers, authorizes, redeems the code and replays the request.

The harness plays the two moments a person is in: `redirect_handler` (the browser) and
`callback_handler` (the redirect back). Every application call that may need the user (the
sign-in's first connection, and every `request`) runs as a task of its own, an Interaction, racing
the SDK's redirect_handler: when the SDK awaits it with an authorization URL first, that URL is the
answer (`url` for mcp_authorization_url, `authorization_url` for a call, which the SDK keeps open
while it waits in callback_handler); `complete_authorization` hands the callback's code, state and
iss to the callback_handler the SDK is awaiting, verbatim, and answers how the call then ended, or
`authorization_url` again when the SDK asks the user once more (403 insufficient_scope after the
new token, mcp/client/auth/oauth2.py:627-786). A `concurrently` batch has no browser between its
calls: there redirect_handler raises SignInNeeded, which the application reports as "sign in
again" (authorization_required).

The application's MCP calls (`request` to mcp_server_url) each connect (`async with Client(...)`),
make the one call the JSON-RPC body names (tools/list without a body) and disconnect; calls to any
other URL go through the same httpx2.AsyncClient, where the provider is the auth of every request,
as an application sending them through its one client has them. The SDK reads time.time() and
takes no clock: the profile runs this under libfaketime. Where the environment has a client_id the
client is pre-registered: the storage's client information holds it and the client_secret, as the
SDK's set_client_info takes them. Where it has none, the storage holds no client information and
the SDK gets a client ID itself at the first sign-in: the Client ID Metadata Document URL it was
given (client_metadata_url) where the authorization server advertises them, else Dynamic Client
Registration (mcp/client/auth/oauth2.py, "Step 4").

The adapter is an asyncio application: one event loop, on a thread of its own, runs the SDK for the
adapter's life; each message waits (bounded) for its coroutine there, and a `concurrently` batch's
threads (the shared module's) wait for theirs at once, so the calls overlap on the one loop.
"""

import asyncio
import concurrent.futures
import contextvars
import json
import re
import ssl
import threading
import time
from importlib.metadata import version
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import httpx2
from pydantic import AnyUrl

from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider, OAuthFlowError, OAuthRegistrationError, OAuthTokenError
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from mcp.shared.exceptions import MCPError

from mcp_storage import FileTokenStorage
from oauth_adapter import CRASHES, Adapter, AuthorizationAsked, ClientError, caused_by, serve, type_name

# How long a message waits for the SDK: under the harness's operation timeout (15 s), so that a hang
# of the library is reported as one, with its words, and not as a silent adapter.
WAIT = 12
SETTLE_WAIT = WAIT - 1
# How long the SDK's callback_handler waits for the browser to come back: a sign-in the harness
# abandons (its scenario ended) is cancelled at `end` or `reset` long before.
BROWSER_WAIT = 60


class SignInNeeded(Exception):
    """The application's redirect_handler, called where nobody is at a browser (a call of a
    `concurrently` batch): the SDK wants a person to sign in (an application would prompt its user)."""


class Interaction:
    """One application call during which the user may be asked to authorize: its task, the URL the
    SDK last gave redirect_handler (`asked`), and the redirect back the harness brings (`callback`),
    which the SDK's callback_handler awaits, the call still open."""

    def __init__(self, coroutine):
        loop = asyncio.get_running_loop()
        self.asked = loop.create_future()
        self.callback = None
        # The task carries its Interaction in its context (and so do the transport's tasks it starts),
        # so the SDK's handlers, wherever they are awaited, know which call asks.
        context = contextvars.copy_context()
        context.run(CURRENT.set, self)
        self.task = loop.create_task(coroutine, context=context)

    async def settle(self):
        """The call's end, or the URL the SDK asks the browser to open first; bounded, a little under
        the message's own wait, so that a call that hangs is cancelled here and not left running."""
        done, _ = await asyncio.wait({self.task, self.asked}, timeout=SETTLE_WAIT, return_when=asyncio.FIRST_COMPLETED)
        if self.asked in done:
            return AuthorizationAsked(self.asked.result())
        if self.task in done:
            return self.task.result()  # raises what the SDK raised
        self.task.cancel()
        raise ClientError("transient", f"the MCP SDK neither finished the call nor asked for the user within {SETTLE_WAIT} s")

    def abandon(self):
        if not self.task.done():
            self.task.cancel()


# The Interaction of the call whose task is running, if it may ask the user.
CURRENT = contextvars.ContextVar("interaction", default=None)


class MCPAdapter(Adapter):
    name = "mcp"
    version = f"{version('mcp')} (httpx2 {version('httpx2')})"
    capabilities = ["mcp_discovery", "authorization_code", "restart", "custom_ca", "concurrency",
                    "dynamic_registration", "client_id_metadata_document", "mcp_legacy_discovery"]

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="sdk-loop", daemon=True).start()
        self.http = None
        # The call waiting for the browser (its SDK in callback_handler), if any.
        self.pending = None
        self.in_batch = False

    def run(self, coroutine, wait=WAIT):
        """Runs `coroutine` on the SDK's loop and waits for it, at most `wait` seconds."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result(wait)
        except BaseExceptionGroup as group:  # anyio's task groups carry the SDK's exception in one
            raise innermost(group) from group
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise ClientError("transient", f"the MCP SDK did not finish within {wait} s")

    # The protocol's operations.

    def reset(self, environment):
        self.run(self._close())
        self.environment = environment
        self.server_url = environment["mcp_server_url"]
        self.storage = FileTokenStorage(environment["storage_dir"])
        self.run(self._register())
        self.run(self._start())

    def mcp_authorization_url(self):
        return self.run(self._begin_sign_in())

    def authorization_url(self):
        # The SDK's code flow has one way in: its MCP sign-in, from the server's 401 (the provider is
        # the MCP server's authorization server). The plain code flow's first half is that.
        return self.run(self._begin_sign_in())

    def complete_authorization(self, redirect_url):
        return self.run(self._complete_authorization(redirect_url))

    def request(self, method, url, headers, body):
        if self.in_batch:
            # No browser between a batch's calls: the SDK's redirect_handler finds no Interaction.
            return self.run(self._request(method, url, headers, body))
        return self.run(self._interact(lambda: self._request(method, url, headers, body)))

    def concurrently(self, operations):
        # The protocol answers one message at a time: while the batch runs, no other call does.
        self.in_batch = True
        try:
            return super().concurrently(operations)
        finally:
            self.in_batch = False

    def restart(self):
        # A relaunched application: a new provider and client, from what the storage kept.
        self.run(self._close())
        self.run(self._start())

    def restore_tokens(self, saved):
        return self.run(self._restore_tokens(saved))

    def tokens(self):
        # What the SDK holds in memory (its OAuthContext): the tokens, and the expiry it computed
        # from expires_in when it received them (none for tokens it loaded from storage).
        context = self.provider.context
        token = context.current_tokens
        if token is None or not token.access_token:
            return None
        return {"access_token": token.access_token, "refresh_token": token.refresh_token,
                "expires_at": context.token_expiry_time}

    def end(self):
        self.run(self._close())

    # The application.

    async def _register(self):
        """Pre-registration (the MCP spec's "static client credentials"): the client information
        the application gives the SDK's storage, as its set_client_info takes it; the SDK then skips
        dynamic registration. The seam for a scenario that has the client register instead
        (RFC 7591): store nothing here, and the SDK registers at the first sign-in."""
        env = self.environment
        if env.get("client_id") is None:
            # No registration: the SDK registers (or uses its metadata document URL) by itself.
            return
        method = env.get("token_endpoint_auth_method") or "client_secret"
        if method not in ("client_secret", "none"):
            # OAuthClientProvider authenticates with the client secret or not at all (prepare_token_auth).
            return
        await self.storage.set_client_info(OAuthClientInformationFull(
            client_id=env["client_id"],
            client_secret=env.get("client_secret") if method == "client_secret" else None,
            # HTTP Basic, RFC 6749 §2.3.1's MUST for a server and the SDK's default for a secret.
            token_endpoint_auth_method="client_secret_basic" if method == "client_secret" else "none",
            redirect_uris=[AnyUrl(env["redirect_uri"])],
        ))

    async def _start(self):
        """The application's provider and its one httpx2.AsyncClient, as the SDK's docs build them."""
        env = self.environment
        self.provider = OAuthClientProvider(
            server_url=self.server_url,
            client_metadata=OAuthClientMetadata(
                client_name="OAuthConformance MCP client",
                redirect_uris=[AnyUrl(env["redirect_uri"])],
            ),
            storage=self.storage,
            redirect_handler=self._open_browser,
            callback_handler=self._wait_for_callback,
            # The client's Client ID Metadata Document, used where the authorization server says it
            # takes them (should_use_client_metadata_url, mcp/client/auth/utils.py:372-395).
            client_metadata_url=env.get("client_id_metadata_document_url"),
        )
        # httpx2's way to trust one CA file, and only it; the profile empties SSL_CERT_FILE/DIR.
        verify = ssl.create_default_context(cafile=env["ca_file"]) if env.get("ca_file") else True
        self.http = httpx2.AsyncClient(auth=self.provider, follow_redirects=True, verify=verify, timeout=10)

    async def _open_browser(self, authorization_url):
        """The SDK's redirect_handler: the browser is the harness's, for a call that may ask."""
        interaction = CURRENT.get()
        if interaction is None or interaction.asked.done():
            endpoint = authorization_url.split("?")[0]
            raise SignInNeeded(f"the MCP SDK asks the user to sign in again (its redirect_handler was given {endpoint})")
        interaction.callback = asyncio.get_running_loop().create_future()
        interaction.asked.set_result(authorization_url)

    async def _wait_for_callback(self):
        """The SDK's callback_handler: the redirect back, as the harness's browser brought it."""
        return await asyncio.wait_for(asyncio.shield(CURRENT.get().callback), BROWSER_WAIT)

    async def _connect(self, call=None):
        """An MCP connection as the SDK's docs make one; the handshake is the first request the
        server sees, and so the one its 401 answers. `call(client)`, if any, is made on it."""
        transport = streamable_http_client(self.server_url, http_client=self.http)
        async with Client(transport) as client:
            return await call(client) if call else None

    async def _begin_sign_in(self):
        # The application's "sign in": the SDK signs in only when it holds no valid token, and its
        # TokenStorage has no delete, so the application forgets the session it stored (the storage
        # is the application's; the client information stays) and connects with a new provider.
        await self._close()
        await self.storage.set_tokens(None)
        await self._start()
        answer = await self._interact(self._connect)
        if isinstance(answer, AuthorizationAsked):
            return answer.url
        raise ClientError("protocol", "the MCP server took the connection without asking for a sign-in")

    async def _interact(self, call):
        """`call()` as a task that may ask the user (an Interaction): its result, or AuthorizationAsked
        with the task kept waiting for the browser."""
        self._abandon_interaction()
        interaction = Interaction(call())
        answer = await interaction.settle()
        if isinstance(answer, AuthorizationAsked):
            self.pending = interaction
        return answer

    async def _complete_authorization(self, redirect_url):
        interaction, self.pending = self.pending, None
        if interaction is None or interaction.callback is None:
            raise ClientError("protocol", "no MCP authorization is under way")
        query = parse_qs(urlsplit(redirect_url).query)

        def first(name):
            return query[name][0] if name in query else None

        # The SDK may ask once more within the call (redirect_handler again): a fresh question.
        interaction.asked = asyncio.get_running_loop().create_future()
        # Verbatim, iss included (the SDK compares it, RFC 9207). An error redirect has no code:
        # AuthorizationCodeResult requires a string, and the SDK checks state and iss before it
        # finds the code empty; it has no field for `error` (shared/auth.py:45-54).
        interaction.callback.set_result(AuthorizationCodeResult(code=first("code") or "", state=first("state"), iss=first("iss")))
        answer = await interaction.settle()
        if isinstance(answer, AuthorizationAsked):
            self.pending = interaction
        return answer

    async def _request(self, method, url, headers, body):
        if url == self.server_url:
            return await self._connect(lambda client: mcp_call(client, body))
        # Any other URL: through the application's one client, whose auth is the SDK's provider.
        return await self.http.request(method, url, headers=headers, content=body.encode() if body else None)

    async def _restore_tokens(self, saved):
        if str(saved.get("token_type", "")).lower() != "bearer":
            raise ClientError("unsupported", "OAuthToken's token_type is Literal['Bearer'] (mcp/shared/auth.py:30)")
        expires_at = saved.get("expires_at")
        # The application's saved session, as the SDK's own type holds it: expires_in is all
        # OAuthToken has for a lifetime.
        await self.storage.set_tokens(OAuthToken(
            access_token=saved["access_token"], refresh_token=saved.get("refresh_token"), scope=saved.get("scope"),
            expires_in=None if expires_at is None else int(round(expires_at - time.time())),
        ))
        await self._close()
        await self._start()

    def _abandon_interaction(self):
        if self.pending is not None:
            self.pending.abandon()
        self.pending = None

    async def _close(self):
        self._abandon_interaction()
        if self.http is not None:
            await self.http.aclose()
            self.http = None

    # What the application sees of a failure.

    def classify(self, exception):
        return sdk_error(innermost(exception))


async def mcp_call(client, body):
    """The MCP request a `request` op's JSON-RPC body names (tools/list when it has none), made
    with the Client's own method for it; the result as the JSON the server's answer carried."""
    message = json.loads(body) if body else {"method": "tools/list"}
    method, params = message.get("method"), message.get("params") or {}
    if method == "tools/list":
        result = await client.list_tools()
    elif method == "tools/call":
        result = await client.call_tool(params.get("name"), params.get("arguments"))
    else:
        raise ClientError("unsupported", f"the adapter makes no MCP {method} call")
    return SimpleNamespace(status_code=200, text=result.model_dump_json(by_alias=True, exclude_none=True))


def innermost(exception):
    """The exception the SDK raised, out of the task groups (anyio's) that carried it to the caller."""
    while isinstance(exception, BaseExceptionGroup):
        inner = [e for e in exception.exceptions if not isinstance(e, asyncio.CancelledError)]
        exception = (inner or exception.exceptions)[0]
    return exception


def sdk_error(exception):
    message = " ".join((str(exception) or repr(exception)).split())
    name = type_name(exception)
    if isinstance(exception, ClientError):
        return exception
    if isinstance(exception, SignInNeeded):
        return ClientError("authorization_required", message, type_name=name)
    if isinstance(exception, (OAuthTokenError, OAuthRegistrationError)):
        # The SDK puts the status in its words only ("Token exchange failed (400): {body}",
        # "Registration failed: 400 …"): no status field; the category is what the words say.
        status = re.search(r"failed:? \(?(\d{3})\)?", message)
        if status and (status.group(1).startswith("5") or status.group(1) == "429"):
            return ClientError("transient", message, type_name=name)
        return ClientError("oauth_error" if status else "protocol", message, type_name=name)
    if isinstance(exception, OAuthFlowError):
        return ClientError("protocol", message, type_name=name)
    if isinstance(exception, MCPError):
        return ClientError("protocol", message, type_name=name)
    if isinstance(exception, httpx2.TransportError):
        if caused_by(exception, ssl.SSLError):
            return ClientError("tls", message, type_name=name)
        if isinstance(exception, (httpx2.TimeoutException, httpx2.NetworkError, httpx2.RemoteProtocolError)):
            return ClientError("transient", message, type_name=name)
        return ClientError("protocol", message, type_name=name)
    if isinstance(exception, CRASHES):
        return ClientError("unexpected", message, type_name=name)
    return ClientError("protocol", message, type_name=name)


if __name__ == "__main__":
    serve(MCPAdapter())
