"""The two libraries with OpenID Connect relying-party code, each signing in as its documentation
shows, against openid_provider.OpenIDProvider; then userinfo and a resource call on the tokens
the sign-in gave. Nothing of the harness or the adapters.

  authlib: the framework-neutral remote app its Flask, Django and Starlette integrations are made
    of (OAuth2Mixin + OpenIDMixin + BaseApp, with server_metadata_url): create_authorization_url
    (state, nonce, PKCE), then what authorize_access_token does after the redirect:
    fetch_access_token, then parse_id_token(token, nonce) with its default leeway (120).
    Userinfo through OpenIDMixin.userinfo(token=...); the application's own calls through an
    OAuth2Session holding the token (token_endpoint from the metadata, update_token), which
    refreshes by itself (leeway 60).
  requests-oauth2client: OAuth2Client.from_discovery_endpoint(issuer=...), authorization_request()
    (scope openid, state, nonce, PKCE), AuthorizationRequest.validate_callback, then
    authorization_code(response), which validates the ID token; OAuth2Client.userinfo(token); the
    application's calls through OAuth2AccessTokenAuth(client, token) on a requests.Session."""

from urllib.parse import parse_qs, urlsplit

from applications import CLIENT_ID, CLIENT_SECRET, REDIRECT_URI


def relying_party(library, provider, **options):
    return {"authlib": AuthlibRelyingParty, "requests-oauth2client": RequestsOAuth2ClientRelyingParty}[library](provider, **options)


class AuthlibRelyingParty:
    def __init__(self, provider, **options):
        from authlib.integrations.base_client import BaseApp, FrameworkIntegration, OAuth2Mixin, OpenIDMixin
        from authlib.integrations.requests_client import OAuth2Session

        class OpenIDApp(OAuth2Mixin, OpenIDMixin, BaseApp):
            client_cls = OAuth2Session

        self.provider = provider
        self.updates = []
        self.app = OpenIDApp(FrameworkIntegration("probe"), name="probe", client_id=CLIENT_ID, client_secret=CLIENT_SECRET,
                             server_metadata_url=provider.discovery_url,
                             client_kwargs={"scope": "openid", "code_challenge_method": "S256"})
        self.session = None
        self.claims = None

    def authorization_request(self):
        self.pending = self.app.create_authorization_url(redirect_uri=REDIRECT_URI)
        return self.pending["url"]

    def sign_in(self):
        """The whole sign-in: the authorization request, the browser, the code redeemed, the ID
        token parsed. Returns the token; raises what the library raised."""
        from authlib.integrations.requests_client import OAuth2Session

        redirect = self.provider.authorize(self.authorization_request())
        query = {k: v[0] for k, v in parse_qs(urlsplit(redirect).query).items()}
        token = self.app.fetch_access_token(redirect_uri=REDIRECT_URI, code=query["code"], state=query["state"],
                                            code_verifier=self.pending["code_verifier"])
        self.claims = self.app.parse_id_token(token, nonce=self.pending["nonce"])
        self.token = token
        metadata = self.app.load_server_metadata()
        self.session = OAuth2Session(CLIENT_ID, CLIENT_SECRET, token_endpoint=metadata["token_endpoint"], token=token,
                                     update_token=lambda token, **kwargs: self.updates.append(dict(token)))
        self.session.default_timeout = 5
        return token

    def userinfo(self):
        return dict(self.app.userinfo(token=self.token))

    def call(self):
        return self.session.get(self.provider.server.to("/resource"))

    def held_id_token(self):
        return self.session.token.get("id_token")


class RequestsOAuth2ClientRelyingParty:
    def __init__(self, provider, alg="RS256", **options):
        import requests
        from requests_oauth2client import OAuth2Client

        self.provider = provider
        self.client = OAuth2Client.from_discovery_endpoint(
            url=provider.discovery_url, issuer=provider.url, client_id=CLIENT_ID, client_secret=CLIENT_SECRET,
            redirect_uri=REDIRECT_URI, testing=True, id_token_signed_response_alg=alg)
        self.session = requests.Session()
        self.token = None

    def authorization_request(self):
        self.pending = self.client.authorization_request()
        return str(self.pending.uri)

    def sign_in(self):
        from requests_oauth2client import OAuth2AccessTokenAuth

        redirect = self.provider.authorize(self.authorization_request())
        response = self.pending.validate_callback(redirect)
        token = self.client.authorization_code(response)
        self.token = token
        self.session.auth = OAuth2AccessTokenAuth(self.client, token)
        return token

    def userinfo(self):
        return self.client.userinfo(self.session.auth.token)

    def call(self):
        return self.session.get(self.provider.server.to("/resource"), timeout=5)

    def held_id_token(self):
        token = self.session.auth.token
        return str(token.id_token) if token is not None and token.id_token is not None else None
