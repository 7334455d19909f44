"""Each library as an application uses it by its own documentation, for the probes that judge
what it does with the tokens of a password (or client_credentials) sign-in, or of a saved session:
sign in, call a resource, look at the token it holds. One class per library, each a handful of
lines of the library's README; nothing of the harness or of the adapters.

  requests-oauthlib  OAuth2Session(client=LegacyApplicationClient, auto_refresh_url,
                     auto_refresh_kwargs, token_updater) and fetch_token (its "Refreshing tokens"
                     and "Legacy Application Flow" pages)
  authlib            authlib.integrations.requests_client.OAuth2Session(token_endpoint=...,
                     update_token=...) and fetch_token(grant_type="password", ...) ("Auto Update Token")
  authlib-async      authlib.integrations.httpx_client.AsyncOAuth2Client, the same, awaited
  requests-oauth2client  OAuth2Client(token_endpoint, client_id, client_secret) and
                     OAuth2AccessTokenAuth / OAuth2ClientCredentialsAuth on a requests.Session
  google-auth-oauthlib  a saved session only (it has no password or client_credentials grant):
                     google.oauth2.credentials.Credentials(token, refresh_token, expiry, token_uri,
                     client_id, client_secret) and google.auth.transport.requests.AuthorizedSession;
                     its sign-in is the code flow (Flow, below)

A saved token (`token=`) is handed over as an application restores one; an `expires_at` in the
past stands for the virtual clock's "advance to expiry", which probes do not have."""

import asyncio
import os
import threading
import warnings
from datetime import datetime, timezone

os.environ.setdefault("OAUTHLIB_INSECURE_TRANSPORT", "1")  # the throwaway server is plain HTTP on loopback
# authlib 1.9 warns at import that its httpx integration moves to httpx2; not what a probe judges.
# authlib.deprecate installs an "always" filter for its warnings on import; this one goes in front.
import authlib.deprecate  # noqa: E402,F401

warnings.filterwarnings("ignore", message="The httpx module is deprecated")

from throwaway_server import outcome, step  # noqa: E402

CLIENT_ID, CLIENT_SECRET = "probe-client", "probe-client-secret-0123456789"  # 30 bytes: long enough an HS256 key
USERNAME, PASSWORD = "alice", "alice-password"
LIBRARIES = ("requests-oauthlib", "authlib", "authlib-async", "requests-oauth2client", "google-auth-oauthlib")


def application(library, server, token=None, grant="password", **options):
    """The library's application object. `grant` is the sign-in it will make: "password",
    "client_credentials", or "tokens" (none: it only ever uses the saved `token`)."""
    return {"requests-oauthlib": RequestsOAuthlibApp, "authlib": AuthlibApp, "authlib-async": AuthlibAsyncApp,
            "requests-oauth2client": RequestsOAuth2ClientApp, "google-auth-oauthlib": GoogleAuthApp}[library](
        server, token, grant, **options)


class RequestsOAuthlibApp:
    def __init__(self, server, token, grant, **options):
        from oauthlib.oauth2 import BackendApplicationClient, LegacyApplicationClient, WebApplicationClient
        from requests_oauthlib import OAuth2Session

        self.server = server
        self.updates = []
        # A saved session alone goes in the WebApplicationClient OAuth2Session makes when given none.
        client_class = {"password": LegacyApplicationClient,
                        "client_credentials": BackendApplicationClient}.get(grant, WebApplicationClient)
        self.session = OAuth2Session(
            client=client_class(client_id=CLIENT_ID),
            token=token,
            # No automatic refresh for client_credentials in the documentation.
            auto_refresh_url=server.to("/token") if grant != "client_credentials" else None,
            auto_refresh_kwargs={"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET},
            token_updater=self.updates.append,
        )
        self.grant = grant

    def sign_in(self):
        extra = {"username": USERNAME, "password": PASSWORD} if self.grant == "password" else {}
        return self.session.fetch_token(self.server.to("/token"), client_id=CLIENT_ID, client_secret=CLIENT_SECRET,
                                        timeout=5, **extra)

    def call(self, path="/resource"):
        return self.session.get(self.server.to(path), timeout=5)

    def held(self):
        return dict(self.session.token or {})


class AuthlibApp:
    def __init__(self, server, token, grant, **options):
        from authlib.integrations.requests_client import OAuth2Session

        self.server = server
        self.updates = []
        metadata = {"grant_type": "client_credentials"} if grant == "client_credentials" else {}
        self.session = OAuth2Session(CLIENT_ID, CLIENT_SECRET, token_endpoint=server.to("/token"), token=token,
                                     update_token=self._update, leeway=options.get("leeway", 60), **metadata)
        self.session.default_timeout = 5
        self.grant = grant

    def _update(self, token, refresh_token=None, access_token=None):
        self.updates.append(dict(token))

    def sign_in(self):
        if self.grant == "password":
            return self.session.fetch_token(grant_type="password", username=USERNAME, password=PASSWORD)
        return self.session.fetch_token()

    def call(self, path="/resource"):
        return self.session.get(self.server.to(path))

    def held(self):
        return dict(self.session.token or {})


class AuthlibAsyncApp:
    """The async client on one event loop of its own, as an asyncio application keeps one; the
    synchronous methods run one coroutine on it, `gather` runs several at once."""

    def __init__(self, server, token, grant, **options):
        from authlib.integrations.httpx_client import AsyncOAuth2Client

        self.server = server
        self.updates = []
        self.loop = asyncio.new_event_loop()
        metadata = {"grant_type": "client_credentials"} if grant == "client_credentials" else {}

        async def make():
            return AsyncOAuth2Client(CLIENT_ID, CLIENT_SECRET, token_endpoint=server.to("/token"), token=token,
                                     update_token=self._update, leeway=options.get("leeway", 60), timeout=5, **metadata)

        self.client = self.loop.run_until_complete(make())
        self.grant = grant

    async def _update(self, token, refresh_token=None, access_token=None):
        self.updates.append(dict(token))

    def sign_in(self):
        if self.grant == "password":
            return self.loop.run_until_complete(self.client.fetch_token(grant_type="password", username=USERNAME, password=PASSWORD))
        return self.loop.run_until_complete(self.client.fetch_token())

    def call(self, path="/resource"):
        return self.loop.run_until_complete(self.client.get(self.server.to(path)))

    def gather(self, count, path="/resource"):
        async def one():
            try:
                return await self.client.get(self.server.to(path))
            except Exception as exception:
                return exception

        async def all_of_them():
            return await asyncio.gather(*(one() for _ in range(count)))

        return self.loop.run_until_complete(asyncio.wait_for(all_of_them(), 10))

    def held(self):
        return dict(self.client.token or {})


class RequestsOAuth2ClientApp:
    def __init__(self, server, token, grant, **options):
        import requests
        from requests_oauth2client import BearerToken, OAuth2AccessTokenAuth, OAuth2Client, OAuth2ClientCredentialsAuth

        self.server = server
        # testing=True: the library's documented switch for a token endpoint that is not https.
        self.client = OAuth2Client(token_endpoint=server.to("/token"), client_id=CLIENT_ID, client_secret=CLIENT_SECRET,
                                   testing=True)
        self.session = requests.Session()
        if token is not None and not isinstance(token, BearerToken):
            token = BearerToken(token["access_token"], refresh_token=token.get("refresh_token"),
                                expires_at=datetime.fromtimestamp(token["expires_at"], tz=timezone.utc)
                                if token.get("expires_at") else None)
        self.grant = grant
        self.session.auth = (OAuth2ClientCredentialsAuth(self.client, token=token) if grant == "client_credentials"
                             else OAuth2AccessTokenAuth(self.client, token))

    def sign_in(self):
        from requests_oauth2client import OAuth2AccessTokenAuth

        if self.grant == "client_credentials":
            self.session.auth.renew_token()
            return self.session.auth.token
        token = self.client.resource_owner_password(username=USERNAME, password=PASSWORD)
        self.session.auth = OAuth2AccessTokenAuth(self.client, token)
        return token

    def call(self, path="/resource"):
        return self.session.get(self.server.to(path), timeout=5)

    def held(self):
        token = self.session.auth.token
        if token is None:
            return {}
        return {"access_token": token.access_token, "refresh_token": token.refresh_token,
                "expires_at": token.expires_at.timestamp() if token.expires_at else None}


class GoogleAuthApp:
    """A saved session as google-auth takes it: Credentials with what refresh needs (token_uri,
    client_id, client_secret) and a naive UTC expiry, used through AuthorizedSession, which
    refreshes before a call once within REFRESH_THRESHOLD of expiry, and after a 401."""

    def __init__(self, server, token, grant, **options):
        from google.auth.transport.requests import AuthorizedSession
        from google.oauth2.credentials import Credentials

        if token is None:
            raise ValueError(f"google-auth-oauthlib has no {grant} grant: give it a saved session")
        self.server = server
        expires_at = token.get("expires_at")
        self.credentials = Credentials(
            token=token["access_token"], refresh_token=token.get("refresh_token"),
            expiry=datetime.fromtimestamp(expires_at, timezone.utc).replace(tzinfo=None) if expires_at else None,
            token_uri=server.to("/token"), client_id=CLIENT_ID, client_secret=CLIENT_SECRET)
        self.session = AuthorizedSession(self.credentials)

    def call(self, path="/resource"):
        return self.session.get(self.server.to(path), timeout=5)

    def held(self):
        expiry = self.credentials.expiry
        return {"access_token": self.credentials.token, "refresh_token": self.credentials.refresh_token,
                "expires_at": expiry.replace(tzinfo=timezone.utc).timestamp() if expiry else None}


def calls(app, times=2, when=""):
    """`times` calls of the resource one after the other, as the application makes them, each
    shown with what it returned or raised; the exceptions (None for a call that returned)."""
    raised = []
    for attempt in range(1, times + 1):
        step(f"call {attempt}{when}: GET /resource")
        raised.append(outcome(app.call)[1])
    return raised


def in_threads(function, count, timeout=10):
    """`count` calls of `function` at once, each on its own thread, as a threaded application
    makes them; their results (or exceptions) in order."""
    results = [None] * count
    barrier = threading.Barrier(count)

    def run(index):
        try:
            barrier.wait(timeout)
            results[index] = function()
        except Exception as exception:
            results[index] = exception

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    return results


# The authorization code flow, as each library's documentation runs it: build the authorization
# URL (state and PKCE by the library), then hand the redirect the browser came back with to the
# library, which redeems the code.

REDIRECT_URI = "http://127.0.0.1/callback"


def code_flow(library, server, issuer=None):
    return {"requests-oauthlib": RequestsOAuthlibCodeFlow, "authlib": AuthlibCodeFlow, "authlib-async": AuthlibAsyncCodeFlow,
            "requests-oauth2client": RequestsOAuth2ClientCodeFlow, "google-auth-oauthlib": GoogleAuthOAuthlibCodeFlow}[library](
        server, issuer)


class RequestsOAuthlibCodeFlow:
    def __init__(self, server, issuer):
        from oauthlib.oauth2 import WebApplicationClient
        from requests_oauthlib import OAuth2Session

        self.server = server
        self.session = OAuth2Session(client=WebApplicationClient(client_id=CLIENT_ID), redirect_uri=REDIRECT_URI, pkce="S256")

    def authorization_url(self):
        url, self.state = self.session.authorization_url(self.server.to("/authorize"))
        return url, self.state

    def redeem(self, redirect_url):
        # fetch_token checks the state authorization_url kept and raises the redirect's error.
        return self.session.fetch_token(self.server.to("/token"), authorization_response=redirect_url,
                                        client_secret=CLIENT_SECRET, timeout=5)


class AuthlibCodeFlow:
    def __init__(self, server, issuer):
        from authlib.integrations.requests_client import OAuth2Session

        self.server = server
        self.session = OAuth2Session(CLIENT_ID, CLIENT_SECRET, token_endpoint=server.to("/token"), redirect_uri=REDIRECT_URI,
                                     code_challenge_method="S256")
        self.session.default_timeout = 5

    def authorization_url(self):
        import secrets

        self.code_verifier = secrets.token_urlsafe(48)
        url, self.state = self.session.create_authorization_url(self.server.to("/authorize"), code_verifier=self.code_verifier)
        return url, self.state

    def redeem(self, redirect_url):
        # authlib compares the state only when the application hands it back, as its docs do.
        return self.session.fetch_token(authorization_response=redirect_url, state=self.state, code_verifier=self.code_verifier)


class AuthlibAsyncCodeFlow(AuthlibCodeFlow):
    def __init__(self, server, issuer):
        from authlib.integrations.httpx_client import AsyncOAuth2Client

        self.server = server
        self.loop = asyncio.new_event_loop()

        async def make():
            return AsyncOAuth2Client(CLIENT_ID, CLIENT_SECRET, token_endpoint=server.to("/token"), redirect_uri=REDIRECT_URI,
                                     code_challenge_method="S256", timeout=5)

        self.session = self.loop.run_until_complete(make())

    def redeem(self, redirect_url):
        return self.loop.run_until_complete(
            self.session.fetch_token(authorization_response=redirect_url, state=self.state, code_verifier=self.code_verifier))


class RequestsOAuth2ClientCodeFlow:
    def __init__(self, server, issuer):
        from requests_oauth2client import OAuth2Client

        self.server = server
        # The README's RFC 9207 setup: the issuer, and the provider's advertised support.
        self.client = OAuth2Client(token_endpoint=server.to("/token"), authorization_endpoint=server.to("/authorize"),
                                   redirect_uri=REDIRECT_URI, client_id=CLIENT_ID, client_secret=CLIENT_SECRET,
                                   issuer=issuer, authorization_response_iss_parameter_supported=True, testing=True)

    def authorization_url(self):
        self.request = self.client.authorization_request(scope=None)
        return str(self.request.uri), self.request.state

    def redeem(self, redirect_url):
        # validate_callback checks state (and iss) and raises the redirect's error.
        return self.client.authorization_code(self.request.validate_callback(redirect_url))


class GoogleAuthOAuthlibCodeFlow:
    """google-auth-oauthlib's Flow, as its web server example runs it: from_client_config with the
    client secrets' content, authorization_url (PKCE S256 of its own, access_type=offline), then
    fetch_token with the redirect (requests-oauthlib checks state) and flow.credentials."""

    def __init__(self, server, issuer):
        from google_auth_oauthlib.flow import Flow

        self.server = server
        self.flow = Flow.from_client_config(
            {"web": {"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET, "auth_uri": server.to("/authorize"),
                     "token_uri": server.to("/token"), "redirect_uris": [REDIRECT_URI]}},
            scopes=None, redirect_uri=REDIRECT_URI)

    def authorization_url(self):
        url, self.state = self.flow.authorization_url()
        return url, self.state

    def redeem(self, redirect_url):
        self.flow.fetch_token(authorization_response=redirect_url, timeout=5)
        return self.flow.credentials
