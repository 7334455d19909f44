"""What an application sees of authlib's own errors, shared by the adapters of its requests client
(authlib_adapter.py) and its httpx client (authlib_async_adapter.py): the library is one, its
error classes are one."""

from authlib.common.errors import AuthlibBaseError

from oauth_adapter import ClientError, category_for_code, type_name

# authlib's own conditions, not RFC 6749 codes: nothing usable to send, so the user must sign in again.
SIGN_IN_CODES = {"missing_token", "token_invalid", "token_expired"}


def authlib_error(exception):
    """authlib's error as a ClientError, or None for an exception that is not authlib's. OAuthError
    and its kin carry the RFC 6749 §5.2 code in .error, which is reported as the oauth_error."""
    if not isinstance(exception, AuthlibBaseError):
        return None
    code = exception.error
    if code in SIGN_IN_CODES:
        return ClientError("authorization_required", str(exception), type_name=type_name(exception))
    if code == "mismatching_state":
        return ClientError("protocol", str(exception), type_name=type_name(exception))
    return ClientError(category_for_code(code), str(exception), oauth_error=code, type_name=type_name(exception))
