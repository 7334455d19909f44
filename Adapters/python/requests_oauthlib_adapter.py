"""requests-oauthlib (OAuth2Session over oauthlib's clients) behind the adapter protocol, used as
its documentation shows: fetch_token with the grant's oauthlib client, then automatic refresh
through auto_refresh_url, auto_refresh_kwargs and token_updater. oauthlib reads time.time() and
takes no clock, so the profile runs this under libfaketime."""

import os

import oauthlib
import requests_oauthlib
from oauthlib.oauth2 import BackendApplicationClient, LegacyApplicationClient, WebApplicationClient
from requests_oauthlib import OAuth2Session

from oauth_adapter import ClientError, SessionAdapter, saved_token, serve
from oauthlib_errors import oauthlib_error

# The oauthlib client of each way of signing in. A restored session ("tokens") has no grant of its
# own to repeat: it goes in the client OAuth2Session makes when given none (WebApplicationClient),
# which only refreshes it.
CLIENTS = {"password": LegacyApplicationClient, "client_credentials": BackendApplicationClient, "authorization_code": WebApplicationClient,
           "tokens": WebApplicationClient}


class RequestsOAuthlibAdapter(SessionAdapter):
    name = "requests-oauthlib"
    version = f"{requests_oauthlib.__version__} (oauthlib {oauthlib.__version__})"
    capabilities = ["authorization_code", "restart", "custom_ca", "concurrency"]

    def reset(self, environment):
        self.environment = environment
        self.token_file = os.path.join(environment["storage_dir"], "requests-oauthlib-token.json")
        self.grant = "authorization_code"
        self.session = self._session(token=None)

    def _session(self, token):
        env = self.environment
        session = OAuth2Session(
            client=CLIENTS[self.grant](client_id=env["client_id"]),
            redirect_uri=env["redirect_uri"] if self.grant == "authorization_code" else None,
            # Only for the code flow: with pkce set, requests-oauthlib 2.0.0's fetch_token reads a
            # code verifier that only authorization_url() creates (AttributeError otherwise).
            pkce="S256" if self.grant == "authorization_code" else None,
            token=token,
            # Automatic refresh for the grants that have a refresh token; the documentation sets up
            # none for client_credentials.
            auto_refresh_url=env["token_endpoint"] if self.grant != "client_credentials" else None,
            # What the documentation passes so the refresh request authenticates the client.
            auto_refresh_kwargs={"client_id": env["client_id"], "client_secret": env["client_secret"]},
            token_updater=self._save,
        )
        if env.get("ca_file"):
            session.verify = env["ca_file"]
        return session

    def _save(self, token):
        self.persist({"grant": self.grant, "token": dict(token)})

    def login(self, grant):
        env = self.environment
        credentials = {"client_id": env["client_id"], "client_secret": env["client_secret"]}
        if grant == "refresh_token":
            token = self.session.refresh_token(env["token_endpoint"], **credentials)
        elif grant in ("password", "client_credentials"):
            self.grant = grant
            self.session = self._session(token=None)
            extra = {"username": env["username"], "password": env["password"]} if grant == "password" else {}
            token = self.session.fetch_token(env["token_endpoint"], **credentials, **extra)
        else:
            raise ClientError("unsupported", f"login {grant}")
        self._save(token)

    def authorization_url(self):
        self.grant = "authorization_code"
        self.session = self._session(token=None)
        url, _state = self.session.authorization_url(self.environment["authorization_endpoint"])
        return url

    def complete_authorization(self, redirect_url):
        # fetch_token checks state against the one authorization_url kept, and raises the
        # redirect's error, if any.
        token = self.session.fetch_token(
            self.environment["token_endpoint"], authorization_response=redirect_url, client_secret=self.environment["client_secret"]
        )
        self._save(token)

    def restore_tokens(self, saved):
        # The constructor's token= ("Token dictionary, must include access_token and
        # token_type"), with auto_refresh_url and token_updater, the setup its docstring gives for
        # refreshing: no request now; OAuth2Session.request refreshes once oauthlib's add_token
        # raises TokenExpiredError (expires_at < time.time()).
        token = saved_token(saved, "oauthlib's Client.add_token signs Bearer and MAC tokens only")
        self.grant = "tokens"
        self.session = self._session(token=token)
        self._save(token)

    def restart(self):
        # A relaunched application: a new session from what was persisted, nothing from memory.
        saved = self.persisted()
        token = None
        if saved:
            self.grant, token = saved["grant"], saved["token"]
        self.session = self._session(token=token)

    def classify(self, exception):
        return oauthlib_error(exception) or super().classify(exception)


if __name__ == "__main__":
    serve(RequestsOAuthlibAdapter())
