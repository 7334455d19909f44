"""What the adapters of authlib's requests client (authlib_adapter.py) and of its httpx client
(authlib_async_adapter.py) share: the library is one, so are its client settings and its error
classes."""

from authlib.common.errors import AuthlibBaseError
from authlib.oauth2.rfc7523 import ClientSecretJWT, PrivateKeyJWT
from joserfc.errors import JoseError
from joserfc.jwk import ECKey

from oauth_adapter import ClientError, client_assertion_jwk, refusal, type_name

# authlib's own conditions, not RFC 6749 codes: nothing usable to send, so the user must sign in again.
SIGN_IN_CODES = {"missing_token", "token_invalid", "token_expired"}


def authlib_error(exception):
    """authlib's error as a ClientError, or None for an exception that is not authlib's. OAuthError
    and its kin carry the RFC 6749 §5.2 code in .error, which is reported as the oauth_error (the
    harness derives the category from it)."""
    if isinstance(exception, JoseError):
        # authlib 1.9 decodes and validates ID tokens with joserfc (OpenIDMixin.parse_id_token,
        # authlib.oidc.core.IDToken): its errors are the ID token refused.
        return ClientError("id_token", str(exception), type_name=type_name(exception))
    if not isinstance(exception, AuthlibBaseError):
        return None
    code = exception.error
    if code in SIGN_IN_CODES:
        return ClientError("authorization_required", str(exception), type_name=type_name(exception))
    if code == "mismatching_state":
        return ClientError("protocol", str(exception), type_name=type_name(exception))
    return refusal(exception, code)


def client_arguments(environment, token, update_token):
    """The arguments an application gives either authlib client for this environment: the token
    endpoint (which enables refresh inside ensure_active_token), its client authentication, PKCE
    S256, the token it holds, and the callback authlib hands each new token to."""
    return dict(
        client_id=environment["client_id"],
        token_endpoint=environment["token_endpoint"],
        redirect_uri=environment["redirect_uri"],
        code_challenge_method="S256",
        token=token,
        update_token=update_token,
        **client_authentication(environment),
    )


def client_authentication(environment):
    """HTTP Basic with the client secret; or, for a client registered for private_key_jwt (the
    environment's client_assertion_jwk), authlib's PrivateKeyJWT as its documentation configures
    it: the private key in the client_secret slot (a joserfc key, as PrivateKeyJWT.sign wants one
    for anything but RSA), the method given as token_endpoint_auth_method, with the token endpoint
    (the assertion's aud) and the key's algorithm, ES256 for the harness's P-256 key (PrivateKeyJWT's
    default is RS256). authlib builds the assertion itself for every token request
    (private_key_jwt_sign: iss = sub = client_id, iat from time.time(), exp an hour later, jti
    generate_token(36)).

    For a client registered for client_secret_jwt (the environment's token_endpoint_auth_method),
    authlib's ClientSecretJWT as its documentation ("Using client_secret_jwt in Requests")
    configures it: the secret in client_secret, token_endpoint_auth_method=ClientSecretJWT(token
    endpoint), HS256 (its default). ClientSecretJWT.sign imports the secret as a joserfc OctKey and
    client_secret_jwt_sign builds a new assertion for every token request, as for private_key_jwt;
    the secret itself is not sent (ClientSecretJWT.__call__ adds client_assertion_type and
    client_assertion only)."""
    jwk = client_assertion_jwk(environment)
    if jwk is not None:
        return dict(
            client_secret=ECKey.import_key(jwk),
            token_endpoint_auth_method=PrivateKeyJWT(environment["token_endpoint"], alg="ES256"),
        )
    if environment.get("token_endpoint_auth_method") == "client_secret_jwt":
        return dict(
            client_secret=environment["client_secret"],
            token_endpoint_auth_method=ClientSecretJWT(environment["token_endpoint"]),
        )
    return dict(client_secret=environment["client_secret"], token_endpoint_auth_method="client_secret_basic")
