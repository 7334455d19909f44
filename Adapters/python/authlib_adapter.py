"""authlib's requests client (authlib.integrations.requests_client.OAuth2Session) behind the
adapter protocol. authlib reads time.time() and takes no clock, so the profile runs this under
libfaketime. The adapter does what an application using authlib does, nothing more: it keeps the
token authlib hands to update_token in a file, and lets authlib decide when to refresh.

OpenID Connect goes through authlib's own relying-party code, the remote app its Flask, Django and
Starlette integrations are made of (OpenIDApp below): discovery (load_server_metadata), the
authentication request (_create_oauth2_authorization_url, which adds the nonce), the JWKS
(fetch_jwk_set) and the ID token's validation (parse_id_token). The code is redeemed and the
resource called on the same OAuth2Session as the plain code flow."""

import os
import secrets

import authlib
from authlib.integrations.base_client import BaseApp, FrameworkIntegration, MismatchingStateError, OAuth2Mixin, OpenIDMixin
from authlib.integrations.requests_client import OAuth2Session
from authlib.oidc.core import UserInfo
from requests.exceptions import HTTPError, JSONDecodeError

from authlib_common import authlib_error, client_arguments
from oauth_adapter import ClientError, SessionAdapter, saved_token, serve, type_name


class OpenIDApp(OAuth2Mixin, OpenIDMixin, BaseApp):
    """authlib's framework-neutral remote app: FlaskOAuth2App and its kin are this class plus the
    framework's session."""

    client_cls = OAuth2Session


class AuthlibAdapter(SessionAdapter):
    name = "authlib"
    version = authlib.__version__
    capabilities = ["proactive_refresh", "authorization_code", "restart", "custom_ca", "concurrency", "openid", "private_key_jwt",
                    "client_secret_jwt"]

    def reset(self, environment):
        self.environment = environment
        self.token_file = os.path.join(environment["storage_dir"], "authlib-token.json")
        self.code_verifier = None
        self.state = None
        self.sign_in = None  # the pending authentication request: url, state, code_verifier, nonce
        self.claims = None  # the ID token claims parse_id_token accepted last
        self.session = self._session(token=None)
        self.openid = self._openid_app()

    def _session(self, token, **metadata):
        env = self.environment
        session = OAuth2Session(**client_arguments(env, token, update_token=self._save), **metadata)
        if env.get("ca_file"):
            session.verify = env["ca_file"]
        return session

    def _openid_app(self):
        """The app as oauth.register(server_metadata_url=...) makes it; its discovery and JWKS
        requests go through client_cls(**client_kwargs), so the CA file goes there."""
        env = self.environment
        if not env.get("openid_configuration_url"):
            return None
        return OpenIDApp(
            FrameworkIntegration("conformance"),
            name="conformance",
            client_id=env["client_id"],
            client_secret=env["client_secret"],
            server_metadata_url=env["openid_configuration_url"],
            client_kwargs={"verify": env["ca_file"]} if env.get("ca_file") else {},
        )

    def _save(self, token, refresh_token=None, access_token=None):
        # The signed-in user is kept beside the token, as an application keeps it in its session.
        self.persist({"token": dict(token), "claims": self.claims})

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

    def sign_in_url(self):
        metadata = self.openid.load_server_metadata()
        # What OAuth2Mixin.create_authorization_url does once it has the metadata: with scope
        # openid, _create_oauth2_authorization_url adds a nonce (generate_token(20)) and, with
        # code_challenge_method set, a PKCE verifier; the session adds the state.
        self.sign_in = OAuth2Mixin._create_oauth2_authorization_url(self.session, metadata["authorization_endpoint"], scope="openid")
        return self.sign_in["url"]

    def complete_sign_in(self, redirect_url):
        # One redirect per request, and none without one: the integrations read the request's
        # data back by its state, clear it, and raise MismatchingStateError when there is none.
        pending, self.sign_in = self.sign_in, None
        if pending is None:
            raise MismatchingStateError()
        held = self.session.token
        token = self.session.fetch_token(
            self.openid.load_server_metadata()["token_endpoint"],
            authorization_response=redirect_url, state=pending["state"], code_verifier=pending["code_verifier"],
        )
        try:
            # As FlaskOAuth2App.authorize_access_token (and its kin) does after redeeming the code,
            # with its defaults (leeway=120). None when the response has no id_token.
            userinfo = self.openid.parse_id_token(token, nonce=pending["nonce"])
        except Exception:
            # fetch_token has put the token in the session; an application keeps nothing of a
            # refused sign-in, so the session goes back to what it held before.
            self.session.token = held
            raise
        if userinfo is not None:
            self.claims = dict(userinfo)
        self._save(token)

    def userinfo(self):
        # OpenIDMixin.userinfo, on the application's session (which refreshes as for any call).
        response = self.session.get(self.openid.load_server_metadata()["userinfo_endpoint"])
        try:
            response.raise_for_status()
            return UserInfo(response.json())
        except (HTTPError, JSONDecodeError) as exception:
            # The response the session handed over: its status is the harness's to read (a 5xx
            # or 429 is transient); anything else is a userinfo answer the client cannot use.
            raise ClientError("userinfo", str(exception), type_name=type_name(exception), status=response.status_code) from exception

    def identity(self):
        return self.claims and {"iss": self.claims.get("iss"), "sub": self.claims.get("sub")}

    def restore_tokens(self, saved):
        # The constructor's token= ("A dict of token attributes such as access_token, token_type
        # and expires_at", OAuth2Session's docstring), with the token endpoint in its metadata,
        # as restart does with what was persisted: no request now; ensure_active_token refreshes
        # with its refresh_token once expires_at - leeway has passed. Nobody is signed in with
        # OpenID Connect: authlib keeps no ID token of a session it did not validate.
        token = saved_token(saved, "authlib's TokenAuth signs bearer tokens only (SIGN_METHODS)")
        self.claims = None
        self.sign_in = None
        self.session = self._session(token=token)
        self._save(token)

    def restart(self):
        # A relaunched application: a new session from what was persisted, nothing from memory.
        saved = self.persisted() or {}
        self.claims = saved.get("claims")
        self.sign_in = None
        self.session = self._session(token=saved.get("token"))
        self.openid = self._openid_app()

    def classify(self, exception):
        return authlib_error(exception) or super().classify(exception)

if __name__ == "__main__":
    serve(AuthlibAdapter())
