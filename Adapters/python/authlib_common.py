"""What the adapters of authlib's requests client (authlib_adapter.py) and of its httpx client
(authlib_async_adapter.py) share: the library is one, so are its client settings and its error
classes."""

from authlib.common.errors import AuthlibBaseError
from joserfc.errors import JoseError

from oauth_adapter import ClientError, category_for_code, type_name

# authlib's own conditions, not RFC 6749 codes: nothing usable to send, so the user must sign in again.
SIGN_IN_CODES = {"missing_token", "token_invalid", "token_expired"}


def authlib_error(exception):
    """authlib's error as a ClientError, or None for an exception that is not authlib's. OAuthError
    and its kin carry the RFC 6749 §5.2 code in .error, which is reported as the oauth_error."""
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
    return ClientError(category_for_code(code), str(exception), oauth_error=code, type_name=type_name(exception))


def client_arguments(environment, token, update_token):
    """The arguments an application gives either authlib client for this environment: the token
    endpoint (which enables refresh inside ensure_active_token), HTTP Basic client authentication,
    PKCE S256, the token it holds, and the callback authlib hands each new token to."""
    return dict(
        client_id=environment["client_id"],
        client_secret=environment["client_secret"],
        token_endpoint=environment["token_endpoint"],
        token_endpoint_auth_method="client_secret_basic",
        redirect_uri=environment["redirect_uri"],
        code_challenge_method="S256",
        token=token,
        update_token=update_token,
    )
