"""authlib's requests client (authlib.integrations.requests_client.OAuth2Session) behind the
adapter protocol. authlib reads time.time() and takes no clock, so the profile runs this under
libfaketime. The adapter does what an application using authlib does, nothing more: it keeps the
token authlib hands to update_token in a file, and lets authlib decide when to refresh."""

import os
import secrets

import authlib
from authlib.integrations.requests_client import OAuth2Session

from authlib_common import authlib_error, client_arguments
from oauth_adapter import ClientError, SessionAdapter, serve


class AuthlibAdapter(SessionAdapter):
    name = "authlib"
    version = authlib.__version__
    capabilities = ["proactive_refresh", "authorization_code", "restart", "custom_ca", "concurrency"]

    def reset(self, environment):
        self.environment = environment
        self.token_file = os.path.join(environment["storage_dir"], "authlib-token.json")
        self.code_verifier = None
        self.state = None
        self.session = self._session(token=None)

    def _session(self, token, **metadata):
        env = self.environment
        session = OAuth2Session(**client_arguments(env, token, update_token=self._save), **metadata)
        if env.get("ca_file"):
            session.verify = env["ca_file"]
        return session

    def _save(self, token, refresh_token=None, access_token=None):
        self.persist({"token": dict(token)})

    def login(self, grant):
        env = self.environment
        if grant == "password":
            token = self.session.fetch_token(grant_type="password", username=env["username"], password=env["password"])
        elif grant == "client_credentials":
            # As authlib's documentation does it: the grant in the session's metadata is what lets
            # ensure_active_token ask again once the token expires (no refresh token in this grant).
            self.session = self._session(token=None, grant_type="client_credentials")
            token = self.session.fetch_token()
        elif grant == "refresh_token":
            token = self.session.refresh_token()
        else:
            raise ClientError("unsupported", f"login {grant}")
        self._save(token)

    def authorization_url(self):
        self.code_verifier = secrets.token_urlsafe(48)
        url, self.state = self.session.create_authorization_url(self.environment["authorization_endpoint"], code_verifier=self.code_verifier)
        return url

    def complete_authorization(self, redirect_url):
        # authlib compares state only when the application hands it back, as this one does.
        token = self.session.fetch_token(authorization_response=redirect_url, state=self.state, code_verifier=self.code_verifier)
        self._save(token)

    def restart(self):
        # A relaunched application: a new session from what was persisted, nothing from memory.
        saved = self.persisted()
        self.session = self._session(token=saved and saved["token"])

    def classify(self, exception):
        return authlib_error(exception) or super().classify(exception)

if __name__ == "__main__":
    serve(AuthlibAdapter())
