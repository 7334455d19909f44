"""requests-oauth2client (Guillaume Pujol's OAuth2Client and its requests auth handlers) behind the
adapter protocol, used as its README shows: an OAuth2Client for the token endpoint (client_secret_post,
the library's default, PrivateKeyJwt for a client registered for private_key_jwt, or ClientSecretJwt
for one registered for client_secret_jwt), a grant method
of that client for each sign-in, and the token handed to an OAuth2AccessTokenAuth (or an
OAuth2ClientCredentialsAuth) on the application's requests.Session, which renews it once it is
inside the handler's leeway. The library reads datetime.now() and takes no clock,
so the profile runs this under libfaketime.

OpenID Connect goes through the library's own relying-party code: OAuth2Client.from_discovery_endpoint
(the document, checked against the issuer, and the JWKS), authorization_request (state, nonce, PKCE),
AuthorizationRequest.validate_callback and authorization_code(AuthorizationResponse), which calls
BearerToken.validate_id_token; then OAuth2Client.userinfo.

Pushed authorization requests (RFC 9126) as the library documents them: the client is given the
PAR endpoint (pushed_authorization_request_endpoint=...), and the AuthorizationRequest it builds
goes through OAuth2Client.pushed_authorization_request, whose RequestUriParameterAuthorizationRequest
(client_id and request_uri only) is what the browser opens. The redirect is still validated
against the original AuthorizationRequest (state, iss, PKCE verifier).

The device authorization grant (RFC 8628) as the library documents it: OAuth2Client(device_authorization_endpoint=...),
OAuth2Client.authorize_device() for the DeviceAuthorizationResponse, and a DeviceAuthorizationPollingJob
over it, called until it returns a token ("while token is None: token = pooler()"). Each call of the
job sleeps its interval (BaseTokenEndpointPollingJob.sleep, time.sleep(self.interval)), then makes
one token request: AuthorizationPending leaves the interval, SlowDown adds slow_down_interval (5 s)
to it, any other error is raised. The job's sleep() is its documented hook for the wait; here the
harness's virtual clock is that sleep: device_poll answers the interval the next call will sleep,
and the call it then makes finds the time already moved (see HarnessClockedPollingJob).

DPoP (RFC 9449) as the README's "Using DPoP" shows it, when the provider offers it (the environment's
dpop_signing_alg_values_supported): OAuth2Client(dpop_bound_access_tokens=True), so that every token
request of a grant that defaults to it (password, client_credentials, authorization_request) carries a
proof by a key the library generates for it (DPoPKey.generate, ES256, its default dpop_alg), and the
answer becomes a DPoPToken bound to that key. The refresh of a DPoPToken goes with a proof by the same
key (OAuth2Client.refresh_token). The DPoPToken is itself the requests auth the handlers apply: it
sends Authorization: DPoP with a proof carrying ath, and retries a resource's DPoP 401 once with its
DPoP-Nonce (DPoPToken._response_hook). The token endpoint's nonce is followed inside
OAuth2Client._request. The stored token is the library's TokenSerializer form of the DPoPToken, which
holds its DPoPKey (private key and nonces, DPoPToken.as_dict), so a restart keeps the key."""

import os
import threading
from datetime import datetime, timezone
from importlib.metadata import version
from urllib.parse import urlsplit

import jwskate
import requests
from requests_oauth2client import (
    AuthorizationResponseError,
    BearerToken,
    ClientSecretJwt,
    DeviceAuthorizationPollingJob,
    ExpiredAccessToken,
    InvalidAuthResponse,
    InvalidIdToken,
    MissingRefreshToken,
    NonRenewableTokenError,
    OAuth2AccessTokenAuth,
    OAuth2Client,
    OAuth2ClientCredentialsAuth,
    OAuth2Error,
    PrivateKeyJwt,
    TokenSerializer,
)

from oauth_adapter import ClientError, SessionAdapter, client_assertion_jwk, log, serve, type_name

# What the library raises when it refuses an ID token: its own InvalidIdToken family from
# validate_id_token, and the jwskate errors of the signature check it calls without catching them
# (SignedJwt.verify: InvalidSignature; the key's algorithm selection: UnsupportedAlg, MismatchingAlg).
ID_TOKEN_REFUSALS = (InvalidIdToken, jwskate.InvalidSignature, jwskate.UnsupportedAlg, jwskate.MismatchingAlg)

# The library's ways of saying it holds no token it can use or renew: only a new sign-in helps.
NO_USABLE_TOKEN = (NonRenewableTokenError, ExpiredAccessToken, MissingRefreshToken)


class HarnessClockedPollingJob(DeviceAuthorizationPollingJob):
    """The library's DeviceAuthorizationPollingJob, unchanged but for its sleep() hook, which the
    library documents as the place of the wait ("By default, relies on time.sleep()"). Every call
    of the job begins with sleep(self.interval); the adapter has already answered device_poll with
    that interval and the harness has moved the virtual clock (and libfaketime the library's clock)
    by it, so the sleep has happened when the call comes. The interval and its slow_down growth
    stay the job's own (self.interval, slow_down())."""

    def sleep(self):
        log.info("DeviceAuthorizationPollingJob.sleep(%s): served by the harness's clock", self.interval)


class RequestsOAuth2ClientAdapter(SessionAdapter):
    name = "requests-oauth2client"
    version = f"{version('requests-oauth2client')} (jwskate {version('jwskate')})"
    capabilities = ["proactive_refresh", "authorization_code", "restart", "custom_ca", "concurrency", "openid", "private_key_jwt",
                    "client_secret_jwt", "pushed_authorization_requests", "device_grant", "dpop"]
    provider_session = None

    def reset(self, environment):
        self.environment = environment
        self.token_file = os.path.join(environment["storage_dir"], "requests-oauth2client-token.json")
        # RFC 9449 §5.1: a provider that takes DPoP proofs says with which algorithms; the library's
        # default (ES256) is among those this harness names, so only whether DPoP is on is taken.
        self.dpop = environment.get("dpop_signing_alg_values_supported") is not None
        self.serializer = TokenSerializer()  # the library's own (de)serialization for stored tokens
        self.save_lock = threading.Lock()  # requests of one concurrently batch finish on several threads
        self._launch(saved=None)

    def _launch(self, saved):
        """What an application builds at start: its HTTP sessions, its OAuth2Client, and the auth
        handler over the token it stored (none at first)."""
        env = self.environment
        saved = saved or {}
        token = self.serializer.loads(saved["token"].encode()) if saved.get("token") else None
        # One session for the authorization server, one for the resource: the auth handler sits on
        # the resource's session only, so the bearer token never goes to the token, discovery or
        # JWKS endpoints (OAuth2Client leaves auth=None on its JWKS request, which would let a
        # session-wide handler in).
        self.provider_session = self._http_session()
        self.session = self._http_session()
        # OAuth2Client refuses endpoint URIs that are not https (InvalidEndpointUri) unless
        # testing=True, its documented switch for that. The provider speaks plain HTTP on loopback
        # unless a scenario asks for TLS, so the switch is set then only: with TLS, the library's
        # own URI checks run.
        self.testing = urlsplit(env["token_endpoint"]).scheme == "http"
        self.client = OAuth2Client(
            token_endpoint=env["token_endpoint"],
            authorization_endpoint=env["authorization_endpoint"],
            redirect_uri=env["redirect_uri"],
            # RFC 9207 as the README configures it: the issuer on the client, which
            # authorization_request() copies into each AuthorizationRequest; and the provider's
            # advertised support (authorization_response_iss_parameter_supported: true in its
            # RFC 8414 metadata), the client setting from_discovery_document fills from that
            # document. authorization_request() does not pass this one on (see the profile).
            issuer=env["issuer"],
            authorization_response_iss_parameter_supported=True,
            # RFC 9126: the PAR endpoint, when the provider takes pushed requests (None otherwise,
            # the library's default: no PAR endpoint configured).
            pushed_authorization_request_endpoint=env.get("pushed_authorization_request_endpoint"),
            # RFC 8628: the device authorization endpoint authorize_device() posts to.
            device_authorization_endpoint=env.get("device_authorization_endpoint"),
            **self._client_settings(),
        )
        self.oidc_client = None  # discovered at the first sign-in, then kept (with its JWKS)
        self.pending = None  # the AuthorizationRequest whose redirect is awaited
        self.device_job = None  # the DeviceAuthorizationPollingJob of a device authorization under way
        self.device_slept = False  # whether the job's next sleep has been answered to the harness
        self.identity_claims = saved.get("identity")
        grant = saved.get("grant", "password")
        self._use(grant, OAuth2ClientCredentialsAuth(self.client, token=token) if grant == "client_credentials"
                  else OAuth2AccessTokenAuth(self.client, token))

    def _client_settings(self):
        """What both OAuth2Clients (the plain one and the discovered OpenID one) are made with: the
        client's credentials, the provider's session, the testing switch, and DPoP when offered."""
        return dict(**self._client_authentication(), session=self.provider_session, testing=self.testing,
                    dpop_bound_access_tokens=self.dpop)

    def _client_authentication(self):
        """The client's credentials for OAuth2Client: client_id and client_secret (which it sends
        as client_secret_post, its default); or, for a client registered for private_key_jwt (the
        environment's client_assertion_jwk), a PrivateKeyJwt auth as the README configures it, over
        a jwskate Jwk of the key. The library then builds the assertion for each request to the
        token endpoint (PrivateKeyJwt.client_assertion: iss = sub = client_id, aud the URL the
        request goes to, iat from datetime.now(), exp iat + 60 s, jti uuid4()). For a client
        registered for client_secret_jwt (the environment's token_endpoint_auth_method), a
        ClientSecretJwt(client_id, client_secret) auth, as the README configures it: the library
        MACs a new assertion HS256 (its default alg) with the secret for each such request
        (ClientSecretJwt.client_assertion: the same claims, the key
        SymmetricJwk.from_bytes(client_secret.encode())); the secret itself is not sent."""
        env = self.environment
        jwk = client_assertion_jwk(env)
        if jwk is not None:
            return dict(auth=PrivateKeyJwt(env["client_id"], jwskate.Jwk(jwk), alg="ES256"))
        if env.get("token_endpoint_auth_method") == "client_secret_jwt":
            return dict(auth=ClientSecretJwt(env["client_id"], env["client_secret"]))
        return dict(client_id=env["client_id"], client_secret=env["client_secret"])

    def _http_session(self):
        session = requests.Session()
        if self.environment.get("ca_file"):
            session.verify = self.environment["ca_file"]
        return session

    def _use(self, grant, auth):
        """The handler the application's resource calls go through from now on."""
        self.grant = grant
        self.session.auth = auth

    def _save(self):
        # The library has no callback for a renewed token: it replaces OAuth2AccessTokenAuth.token
        # inside the handler. So the application stores the handler's token after every
        # operation, with the library's TokenSerializer, and the signed-in user beside it.
        with self.save_lock:
            token = self.session.auth.token
            if token is not None:
                stored = self.serializer.dumps(token).decode()
                self.persist({"grant": self.grant, "token": stored, "identity": self.identity_claims})

    def login(self, grant):
        env = self.environment
        try:
            if grant == "password":
                # The token (with its refresh token) goes to OAuth2AccessTokenAuth, which refreshes
                # with the refresh token. (OAuth2ResourceOwnerPasswordAuth would keep the password
                # and send the password grant again at every expiry instead.)
                token = self.client.resource_owner_password(username=env["username"], password=env["password"])
                self.identity_claims = None
                self._use("password", OAuth2AccessTokenAuth(self.client, token))
            elif grant == "client_credentials":
                # The README's handler for this grant: it asks again whenever it has no valid token.
                # renew_token() makes it ask now rather than at the first call.
                auth = OAuth2ClientCredentialsAuth(self.client)
                self.identity_claims = None
                self._use("client_credentials", auth)
                auth.renew_token()
            elif grant == "refresh_token":
                # The handler's own "obtain a new token now" call: OAuth2AccessTokenAuth refreshes
                # with the refresh token it holds, and returns quietly when it holds none;
                # OAuth2ClientCredentialsAuth asks for a new client_credentials token.
                self.session.auth.renew_token()
            else:
                raise ClientError("unsupported", f"login {grant}")
        finally:
            self._save()

    def request(self, method, url, headers, body):
        try:
            return super().request(method, url, headers, body)
        finally:
            self._save()

    def authorization_url(self):
        # state, PKCE S256 and the expected issuer come from the library; no scope, so no nonce
        # (authorization_request's default scope is "openid").
        self.pending = self.client.authorization_request(scope=None)
        return self._front_channel_uri(self.client, self.pending)

    def _front_channel_uri(self, client, authorization_request):
        """The URL the browser opens for an AuthorizationRequest. With a PAR endpoint in the
        environment, the request is pushed first (OAuth2Client.pushed_authorization_request: its
        parameters POSTed to the PAR endpoint, authenticated as at the token endpoint), and the
        browser gets the library's RequestUriParameterAuthorizationRequest URI (client_id and
        request_uri). A failed push raises the library's exception (an EndpointError subclass for
        an error body, InvalidPushedAuthorizationResponse otherwise), classified below; the
        request then stays unsent, and no redirect is awaited."""
        if not self.environment.get("pushed_authorization_request_endpoint"):
            return authorization_request.uri
        try:
            return client.pushed_authorization_request(authorization_request).uri
        except BaseException:
            self.pending = None
            raise

    def complete_authorization(self, redirect_url):
        azr = self._validated_callback(redirect_url)
        try:
            token = self.client.authorization_code(azr)
            self.identity_claims = None
            self._use("authorization_code", OAuth2AccessTokenAuth(self.client, token))
        finally:
            self._save()

    def _validated_callback(self, redirect_url):
        # One redirect per request: validate_callback compares state (and iss, when the response
        # carries one) with the request it belongs to, and raises the redirect's error, if any.
        pending, self.pending = self.pending, None
        if pending is None:
            raise ClientError("protocol", "an authorization response arrived with no authorization request pending")
        return pending.validate_callback(redirect_url)

    def _oidc(self):
        """The client as the README makes one for an OpenID provider: from its discovery document,
        which must name the expected issuer; the JWKS is fetched with it, once."""
        if self.oidc_client is None:
            env = self.environment
            self.oidc_client = OAuth2Client.from_discovery_endpoint(
                url=env["openid_configuration_url"],
                issuer=env["issuer"],
                **self._client_settings(),
                redirect_uri=env["redirect_uri"],
                # from_discovery_document takes the PAR endpoint from the document (this provider
                # always advertises one); sign_in_url pushes only when the environment names it.
                # The algorithm this client registered; validate_id_token refuses any other.
                id_token_signed_response_alg=env.get("id_token_signing_alg") or "RS256",
            )
        return self.oidc_client

    def sign_in_url(self):
        # authorization_request's defaults: scope openid, a fresh state and nonce
        # (secrets.token_urlsafe(32)), PKCE S256.
        client = self._oidc()
        self.pending = client.authorization_request()
        return self._front_channel_uri(client, self.pending)

    def complete_sign_in(self, redirect_url):
        azr = self._validated_callback(redirect_url)
        client = self._oidc()
        try:
            # With an AuthorizationResponse, authorization_code calls validate_id_token on the
            # response's ID token; a refusal raises before the application holds any of its tokens.
            token = client.authorization_code(azr)
            self.identity_claims = self._identity_of(token.id_token)
            self._use("openid", OAuth2AccessTokenAuth(client, token))
        finally:
            self._save()

    @staticmethod
    def _identity_of(id_token):
        """The user an accepted ID token names. The library accepts ID tokens without iss or sub
        (validate_id_token requires neither); such a token names nobody the protocol can report,
        so the application holds no identity then."""
        if id_token is None:
            return None
        iss, sub = id_token.get_claim("iss"), id_token.get_claim("sub")
        return {"iss": iss, "sub": sub} if isinstance(iss, str) and isinstance(sub, str) else None

    # The device authorization grant (capability device_grant).

    def device_authorization(self):
        # authorize_device() posts to the device authorization endpoint, authenticated with the
        # client's own auth (client_secret_post, PrivateKeyJwt or ClientSecretJwt), and parses the answer into a
        # DeviceAuthorizationResponse. The polling job takes its device_code and interval (5 when
        # the response gives none: "interval or 5"); it keeps no expires_at.
        self.device_job, self.device_slept = None, False
        response = self.client.authorize_device()
        # OAuth2Client.device_code takes dpop=False by default, not the client's
        # dpop_bound_access_tokens; the README's other way, dpop=True on the token request, goes
        # through the job's token_kwargs to every poll.
        dpop = dict(dpop=True) if self.dpop else {}
        self.device_job = HarnessClockedPollingJob(self.client, response, **dpop)
        return {
            "user_code": response.user_code,
            "verification_uri": response.verification_uri,
            "verification_uri_complete": response.verification_uri_complete,
        }

    def device_poll(self):
        """One step of `while token is None: token = job()`. A call of the job is its sleep, then
        one token request; the sleep is answered first (("wait", job.interval)), and the next
        device_poll makes the call, its sleep served by the clock the harness moved. A pending or
        slow_down answer is handled inside the job (slow_down grows job.interval), which returns
        None: the next sleep, of the job's current interval, is answered at once. A token ends
        the flow; any other error (AccessDenied, ExpiredToken, ...) is raised by the job."""
        job = self.device_job
        if job is None:
            raise ClientError("protocol", "device_poll with no device authorization under way")
        if not self.device_slept:
            self.device_slept = True
            return ("wait", job.interval)
        try:
            token = job()
        except BaseException:
            self.device_job = None  # the flow is over: the job raised what ends it
            raise
        if token is None:
            return ("wait", job.interval)  # the sleep that begins the job's next call
        self.device_job = None
        self.identity_claims = None
        self._use("device_code", OAuth2AccessTokenAuth(self.client, token))
        self._save()
        return None

    def userinfo(self):
        client = self._oidc()
        try:
            # OAuth2Client.userinfo with the token the application holds; it does not renew it.
            return client.userinfo(self.session.auth.token)
        except requests.exceptions.HTTPError as exception:
            # on_userinfo_error is raise_for_status(): the status is all the library surfaces, and
            # the harness reads it (a 5xx or 429 is transient).
            status = exception.response.status_code if exception.response is not None else None
            # A 401: the access token (or its absence) was refused.
            category = "authorization_required" if status == 401 else "userinfo"
            raise ClientError(category, str(exception), type_name=type_name(exception), status=status) from exception
        except requests.exceptions.JSONDecodeError as exception:
            raise ClientError("userinfo", str(exception), type_name=type_name(exception)) from exception

    def identity(self):
        return self.identity_claims

    def tokens(self):
        token = self.session.auth.token if self.session is not None else None
        if token is None:
            return None
        expires_at = token.expires_at.timestamp() if token.expires_at else None
        return {"access_token": token.access_token, "refresh_token": token.refresh_token, "expires_at": expires_at}

    def restore_tokens(self, saved):
        """The tokens sign-in as OAuth2AccessTokenAuth's own example has it: a BearerToken built
        from what the application kept ("obtain a BearerToken any way you see fit, optionally
        including a refresh token"), handed to the handler as its "initial Access Token, if you
        have one already". No request now: the handler renews it with its refresh token before
        the first call that finds it inside the leeway. expires_at becomes the aware datetime
        BearerToken takes, as TokenSerializer.default_loader converts a stored one. A DPoP-bound
        session is a DPoPToken, which needs the private key it is bound to; the message has none."""
        if str(saved["token_type"]).lower() != "bearer":
            raise ClientError("unsupported", f"a {saved['token_type']} session cannot be restored: a DPoPToken needs its DPoP key, which a saved session does not carry")
        expires_at = saved.get("expires_at")
        token = BearerToken(
            access_token=saved["access_token"],
            expires_at=datetime.fromtimestamp(expires_at, tz=timezone.utc) if expires_at is not None else None,
            refresh_token=saved.get("refresh_token"),
            scope=saved.get("scope"),
            id_token=saved.get("id_token"),
        )
        self.identity_claims = None  # an ID token in a saved session was validated by nobody here
        self._use("tokens", OAuth2AccessTokenAuth(self.client, token))
        self._save()

    def restart(self):
        # A relaunched application: new sessions, client and handler from what was stored.
        saved = self.persisted()
        self.end()
        self._launch(saved)

    def end(self):
        for session in (self.session, self.provider_session):
            if session is not None:
                session.close()

    def classify(self, exception):
        name = type_name(exception)
        message = str(exception) or repr(exception)
        if isinstance(exception, OAuth2Error):
            # An endpoint answered with an error. EndpointError and its subclasses (InvalidGrant,
            # InvalidClient, …) carry the RFC 6749 §5.2 code in .error; InvalidTokenResponse (a body
            # that is neither a token nor a standard error) carries none. Both carry the response.
            # The PAR endpoint's errors are of these kinds too: an error body gives an EndpointError
            # subclass, anything else InvalidPushedAuthorizationResponse (no .error). The harness
            # derives the category from the status and the code (AccessDenied and ExpiredToken,
            # the device authorization's end, carry theirs); without either it is an answer the
            # library could not use.
            code = getattr(exception, "error", None)
            status = exception.response.status_code if exception.response is not None else None
            return ClientError(None if code else "protocol", message, oauth_error=code, type_name=name, status=status)
        if isinstance(exception, AuthorizationResponseError):
            # error= in the redirect; the exception sets .error and .description but no message.
            code = exception.error
            text = f"{code}: {exception.description}" if exception.description else code
            return ClientError(None if code else "oauth_error", text, oauth_error=code, type_name=name)
        if isinstance(exception, InvalidAuthResponse):
            # MismatchingState, MissingIssuer, MismatchingIssuer, MissingAuthCode.
            return ClientError("protocol", message, type_name=name)
        if isinstance(exception, ID_TOKEN_REFUSALS):
            return ClientError("id_token", message, type_name=name)
        if isinstance(exception, NO_USABLE_TOKEN):
            return ClientError("authorization_required", message, type_name=name)
        return super().classify(exception)


if __name__ == "__main__":
    serve(RequestsOAuth2ClientAdapter())
