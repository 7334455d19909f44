"""authlib's asynchronous client (authlib.integrations.httpx_client.AsyncOAuth2Client, on httpx)
behind the adapter protocol. The same library as authlib_adapter.py, another code path: its own
ensure_active_token, which holds an anyio lock around the expiry check and the refresh, and an
update_token callback that it awaits.

The adapter is an asyncio application: one event loop for the adapter's whole life, on the main
thread, which every message runs on (the client, its httpx connection pool and its lock are bound
to the loop they were made on, as in an application). A `concurrently` batch is asyncio.gather of
the operations on the one client. authlib reads time.time() and takes no clock, so the profile
runs this under libfaketime; asyncio measures its own time on the monotonic clock, which
libfaketime leaves real. As in authlib_adapter.py, the adapter keeps the token authlib hands the
application (fetch_token's result, update_token's argument) in a file, and lets authlib decide when
to refresh.
"""

import asyncio
import os
import secrets
import ssl

import authlib
import httpx
from types import SimpleNamespace

from authlib.integrations.httpx_client import AsyncOAuth2Client

from authlib_common import authlib_error, client_arguments
from oauth_adapter import Adapter, ClientError, call, caused_by, failure, saved_token, serve, success, type_name


class AuthlibAsyncAdapter(Adapter):
    name = "authlib-async"
    version = f"{authlib.__version__} (httpx {httpx.__version__})"
    capabilities = ["proactive_refresh", "authorization_code", "restart", "custom_ca", "concurrency"]

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.client = None
        self.clients = []  # every client made in this scenario, closed at its end

    def run(self, coroutine):
        """Runs one message's work on the adapter's event loop. Each HTTP exchange in it is
        bounded by httpx's default timeouts (5 s); the harness's operation timeout bounds the whole."""
        return self.loop.run_until_complete(coroutine)

    # The protocol's operations, each run on the loop.

    def reset(self, environment):
        self.run(self._close_clients())
        self.environment = environment
        self.token_file = os.path.join(environment["storage_dir"], "authlib-async-token.json")
        self.code_verifier = None
        self.state = None
        self.client = self.run(self._client(token=None))

    def login(self, grant):
        return self.run(self._login(grant))

    def authorization_url(self):
        # create_authorization_url is a plain method of the async client too.
        self.code_verifier = secrets.token_urlsafe(48)
        url, self.state = self.client.create_authorization_url(self.environment["authorization_endpoint"], code_verifier=self.code_verifier)
        return url

    def complete_authorization(self, redirect_url):
        return self.run(self._complete_authorization(redirect_url))

    def request(self, method, url, headers, body):
        return self.run(self._request(method, url, headers, body))

    def restart(self):
        return self.run(self._restart())

    def restore_tokens(self, saved):
        return self.run(self._restore_tokens(saved))

    def concurrently(self, operations):
        return self.run(self._concurrently(operations))

    def tokens(self):
        token = self.client.token
        if not token or not token.get("access_token"):
            return None
        return {"access_token": token.get("access_token"), "refresh_token": token.get("refresh_token"), "expires_at": token.get("expires_at")}

    def end(self):
        self.run(self._close_clients())

    # The application's coroutines.

    async def _client(self, token, **metadata):
        """A new AsyncOAuth2Client, made inside the loop as an application makes it."""
        env = self.environment
        client = AsyncOAuth2Client(
            **client_arguments(env, token, update_token=self._save),  # _save is awaited after every refresh
            # httpx's documented way to trust one CA file, and only it (a context made from a
            # cafile loads no default roots). httpx's SSL_CERT_FILE/SSL_CERT_DIR apply only to
            # verify=True; the profile empties them all the same.
            verify=ssl.create_default_context(cafile=env["ca_file"]) if env.get("ca_file") else True,
            **metadata,
        )
        self.clients.append(client)
        return client

    async def _save(self, token, refresh_token=None, access_token=None):
        """authlib's update_token callback (the async client awaits it), and the adapter's own
        save of what fetch_token returned."""
        self.persist({"token": dict(token)})

    async def _login(self, grant):
        env = self.environment
        if grant == "password":
            token = await self.client.fetch_token(grant_type="password", username=env["username"], password=env["password"])
        elif grant == "client_credentials":
            # As authlib's documentation does it: the grant in the client's metadata is what lets
            # ensure_active_token ask again once the token expires (no refresh token in this grant).
            self.client = await self._client(token=None, grant_type="client_credentials")
            token = await self.client.fetch_token()
        elif grant == "refresh_token":
            token = await self.client.refresh_token()
        else:
            raise ClientError("unsupported", f"login {grant}")
        await self._save(token)

    async def _complete_authorization(self, redirect_url):
        # authlib compares state only when the application hands it back, as this one does.
        token = await self.client.fetch_token(authorization_response=redirect_url, state=self.state, code_verifier=self.code_verifier)
        await self._save(token)

    async def _request(self, method, url, headers, body):
        return await self.client.request(method, url, headers=headers, content=body)

    async def _restart(self):
        # A relaunched application: a new client from what was persisted, nothing from memory.
        # The old client is closed at the scenario's end, not here: a restart in a concurrently
        # batch must not pull connections from under the calls still running on it.
        saved = self.persisted()
        self.client = await self._client(token=saved and saved["token"])

    async def _restore_tokens(self, saved):
        # AsyncOAuth2Client's token= (the dict its docstring describes), as _restart does with
        # what was persisted: no request now; its ensure_active_token refreshes once expires_at -
        # leeway has passed.
        token = saved_token(saved, "authlib's TokenAuth signs bearer tokens only (SIGN_METHODS)")
        self.client = await self._client(token=token)
        await self._save(token)

    async def _concurrently(self, operations):
        # As an asyncio application calls at once: tasks on the one client, gathered. (gather is
        # called inside the running loop: outside it, it would make its tasks on another loop.)
        return await asyncio.gather(*(self._outcome(operation) for operation in operations))

    async def _outcome(self, operation):
        """One operation of a concurrently batch, dispatched and answered as the shared module
        does it; only the operations are coroutines here."""
        coroutines = SimpleNamespace(
            login=self._login, request=self._request, restart=self._restart, complete_authorization=self._complete_authorization
        )
        op = operation.get("op")
        try:
            return success(op, await call(coroutines, operation))
        except Exception as exception:  # the library's error, reported as the application sees it
            return failure(self, op, exception)

    async def _close_clients(self):
        clients, self.clients = self.clients, []
        for client in clients:
            await client.aclose()

    # What the application sees of a failure.

    def classify(self, exception):
        return authlib_error(exception) or httpx_error(exception) or super().classify(exception)

def httpx_error(exception):
    """httpx's own failures as the protocol's categories; None for anything else. httpx has no
    TLS error class: a refused certificate is a ConnectError caused by ssl's error, which httpx
    chains to it (the application sees it as __cause__)."""
    message = str(exception) or repr(exception)
    if isinstance(exception, httpx.HTTPStatusError):
        # raise_for_status, which authlib calls on a 5xx or a token response that is no JSON object:
        # the status is the harness's to read (a 5xx or 429 is transient).
        return ClientError("protocol", message, type_name=type_name(exception), status=exception.response.status_code)
    if isinstance(exception, httpx.TransportError):
        if caused_by(exception, ssl.SSLError):
            return ClientError("tls", message, type_name=type_name(exception))
        if isinstance(exception, (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)):
            return ClientError("transient", message, type_name=type_name(exception))
        return ClientError("protocol", message, type_name=type_name(exception))
    if isinstance(exception, httpx.TooManyRedirects):
        return ClientError("protocol", message, type_name=type_name(exception))
    return None


if __name__ == "__main__":
    serve(AuthlibAsyncAdapter())
