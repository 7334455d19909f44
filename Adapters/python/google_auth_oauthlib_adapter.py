"""google-auth-oauthlib (its Flow and InstalledAppFlow, on requests-oauthlib) with google-auth (its
OAuth 2.0 user Credentials and the requests transport's AuthorizedSession) behind the adapter
protocol, used as their documentation shows a desktop application using them:

    flow = InstalledAppFlow.from_client_config(client_config, scopes)
    credentials = flow.run_local_server(port=0)
    session = AuthorizedSession(credentials)

run_local_server listens on loopback, opens the system browser on the authorization URL (through
Python's webbrowser module: the browser it opens hands the URL to the harness, native_sign_in.py),
waits for the redirect and redeems the code with PKCE S256. The web server's split of the same
flow (Flow.authorization_url, then Flow.fetch_token with the redirect) is the authorization_code
sign-in; a session the application saved is restored with the Credentials constructor. From then on
AuthorizedSession does what the library does: Credentials.before_request refreshes once the token is
within google-auth's REFRESH_THRESHOLD of its expiry, and a 401 is refreshed and retried.

google-auth reads _helpers.utcnow() (datetime.now) and oauthlib time.time(); neither takes a clock,
so the profile runs this under libfaketime. google-auth persists nothing: the application writes
Credentials.to_json() (Google's quickstart writes token.json) and builds Credentials again from it."""

import datetime
import json
import os
import threading
from importlib.metadata import version

import requests
from google.auth.exceptions import RefreshError, TransportError
from google.auth.transport.requests import AuthorizedSession, Request
from google.oauth2.credentials import Credentials
from google_auth_oauthlib.flow import Flow, InstalledAppFlow, WSGITimeoutError

from native_sign_in import NativeSignIn
from oauth_adapter import Adapter, ClientError, saved_token, serve, transport_error, type_name
from oauthlib_errors import oauthlib_error

# The harness's provider knows no scopes: the flows ask for none (Flow.from_client_config takes
# scopes=None), and the credentials refresh without one.
SCOPES = None

# How long run_local_server waits for the browser's redirect (its timeout_seconds, None by
# default: forever), longer than the harness's two bounded visits.
LISTENER_TIMEOUT = 30


class GoogleAuthOAuthlibAdapter(Adapter):
    name = "google-auth-oauthlib"
    version = f"{version('google-auth-oauthlib')} (google-auth {version('google-auth')})"
    capabilities = ["proactive_refresh", "refresh_on_401", "authorization_code", "restart", "custom_ca", "concurrency"]

    def reset(self, environment):
        self.environment = environment
        self.token_file = os.path.join(environment["storage_dir"], "token.json")
        self.flow = None
        self.native = None  # a sign-in the harness abandoned ends with its listener's timeout
        self.credentials = None
        self.session = None
        self.saving = threading.Lock()

    def _client_config(self, client_type):
        """The client secrets file's content (client_secrets.json, "web" or "installed"), for this
        provider."""
        env = self.environment
        return {client_type: {
            "client_id": env["client_id"],
            "client_secret": env["client_secret"],
            "auth_uri": env["authorization_endpoint"],
            "token_uri": env["token_endpoint"],
            "redirect_uris": [env["redirect_uri"]],
        }}

    def _verified(self, session):
        """A requests.Session trusting the harness's CA, when it gives one (requests' verify)."""
        if self.environment.get("ca_file"):
            session.verify = self.environment["ca_file"]
        return session

    def _flow(self, flow_class, client_type, **kwargs):
        flow = flow_class.from_client_config(self._client_config(client_type), scopes=SCOPES, **kwargs)
        # The flow redeems the code through its requests-oauthlib OAuth2Session, a requests.Session.
        self._verified(flow.oauth2session)
        return flow

    def _signed_in(self, credentials):
        """The application's session from now on: AuthorizedSession over the credentials, with the
        refresh requests (auth_request) on a session that trusts the same CA."""
        self.credentials = credentials
        if self.session is not None:
            self.session.close()
        self.session = self._verified(AuthorizedSession(credentials, auth_request=Request(self._verified(requests.Session()))))
        self._save()

    def _save(self):
        # What the quickstart writes to token.json; google-auth says nothing when it refreshes, so
        # the application writes it again after each use.
        with self.saving:
            if self.credentials is not None:
                with open(self.token_file, "w") as file:
                    file.write(self.credentials.to_json())

    # The web server's split of the code flow (sign_in: authorization_code).

    def authorization_url(self):
        self.flow = self._flow(Flow, "web", redirect_uri=self.environment["redirect_uri"])
        # Flow.authorization_url adds access_type=offline and a PKCE S256 challenge of its own.
        url, _state = self.flow.authorization_url()
        return url

    def complete_authorization(self, redirect_url):
        # fetch_token (requests-oauthlib's) checks state against the one authorization_url kept and
        # raises the redirect's error, if any; flow.credentials makes Credentials of the token.
        self.flow.fetch_token(authorization_response=redirect_url)
        self._signed_in(self.flow.credentials)

    # A native app's sign-in (sign_in: native_app).

    def begin_native_sign_in(self):
        flow = self._flow(InstalledAppFlow, "installed")

        def run(browser):
            # As the documentation calls it, on the loopback address (RFC 8252 §8.3) and a port the
            # system chooses; browser= is run_local_server's way to choose the browser it opens.
            return flow.run_local_server(host="127.0.0.1", port=0, open_browser=True, browser=browser,
                                         timeout_seconds=LISTENER_TIMEOUT)

        self.native = NativeSignIn(run)
        return self.native.open_url(timeout=10)

    def finish_native_sign_in(self):
        native, self.native = self.native, None
        if native is None:
            raise ClientError("authorization_required", "no native sign-in was begun")
        self._signed_in(native.finish(timeout=12))

    # A saved session (sign_in: tokens), and the application's own storage (restart).

    def restore_tokens(self, saved):
        token = saved_token(saved, "google-auth's Credentials.apply sends every token as Bearer")
        expires_at = token.get("expires_at")
        self._signed_in(self._credentials(token["access_token"], token.get("refresh_token"), expires_at and _utc(expires_at)))

    def _credentials(self, access_token, refresh_token, expiry):
        # The constructor, as an application restores what it stored: token_uri, client_id and
        # client_secret are what Credentials.refresh needs to refresh; expiry is naive UTC.
        env = self.environment
        return Credentials(token=access_token, refresh_token=refresh_token, expiry=expiry, token_uri=env["token_endpoint"],
                           client_id=env["client_id"], client_secret=env["client_secret"], scopes=SCOPES)

    def restart(self):
        # A relaunched application: Credentials again from token.json, nothing from memory. Not
        # Credentials.from_authorized_user_file, the quickstart's call: from_authorized_user_info
        # replaces the stored token_uri with Google's token endpoint (google/oauth2/credentials.py:515).
        self.flow = None
        self.native = None
        if self.session is not None:
            self.session.close()
        self.credentials = self.session = None
        if not os.path.exists(self.token_file):
            return
        with open(self.token_file) as file:
            stored = json.load(file)
        expiry = stored.get("expiry")
        expiry = expiry and datetime.datetime.strptime(expiry.rstrip("Z").split(".")[0], "%Y-%m-%dT%H:%M:%S")
        self._signed_in(self._credentials(stored.get("token"), stored.get("refresh_token"), expiry))

    # Using the session.

    def login(self, grant):
        if grant != "refresh_token":
            raise ClientError("unsupported", f"google-auth-oauthlib has no {grant} grant")
        self._signed_in_now().refresh(Request(self._verified(requests.Session())))
        self._save()

    def request(self, method, url, headers, body):
        self._signed_in_now()
        try:
            return self.session.request(method, url, headers=headers, data=body)
        finally:
            self._save()

    def _signed_in_now(self):
        if self.credentials is None:
            raise ClientError("authorization_required", "nobody is signed in: the application has no credentials")
        return self.credentials

    def tokens(self):
        credentials = self.credentials
        if credentials is None or not credentials.token:
            return None
        expiry = credentials.expiry
        return {"access_token": credentials.token, "refresh_token": credentials.refresh_token,
                "expires_at": expiry.replace(tzinfo=datetime.timezone.utc).timestamp() if expiry else None}

    def end(self):
        if self.session is not None:
            self.session.close()

    def classify(self, exception):
        name = type_name(exception)
        if isinstance(exception, RefreshError):
            # google-auth's refusal of a refresh: RefreshError(message, response_data, retryable=).
            # The decoded error response is its second argument, with the RFC 6749 §5.2 code in
            # "error"; the HTTP status is not kept, only whether _can_retry judged it retryable
            # (google/oauth2/_client.py:80).
            data = exception.args[1] if len(exception.args) > 1 else None
            code = data.get("error") if isinstance(data, dict) else None
            if code:
                return ClientError(None, str(exception), oauth_error=code, type_name=name)
            if data is None and self.credentials is not None and self.credentials.refresh_token is None:
                # Credentials.refresh refuses without a request: nothing to refresh with
                # (google/oauth2/credentials.py:419).
                return ClientError("authorization_required", str(exception), type_name=name)
            return ClientError("transient" if exception.retryable else "protocol", str(exception), type_name=name)
        if isinstance(exception, TransportError) and isinstance(exception.__cause__, Exception):
            # google-auth wraps requests' failures (google/auth/transport/requests.py:292).
            return transport_error(exception.__cause__) or ClientError("transient", str(exception), type_name=name)
        if isinstance(exception, WSGITimeoutError):
            # An AttributeError by inheritance, but the library's documented outcome: no redirect came.
            return ClientError("protocol", str(exception), type_name=name)
        return oauthlib_error(exception) or super().classify(exception)


def _utc(timestamp):
    """A Unix time as the naive UTC datetime google-auth compares with _helpers.utcnow()."""
    return datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc).replace(tzinfo=None)


if __name__ == "__main__":
    serve(GoogleAuthOAuthlibAdapter())
