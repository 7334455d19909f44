"""oauthlib's errors as the protocol reports them. requests-oauthlib's OAuth2Session raises them,
and so does google-auth-oauthlib's Flow, which redeems the code through that session: one library's
error classes, read in one place."""

from oauthlib.oauth2.rfc6749.errors import OAuth2Error

from oauth_adapter import ClientError, refusal, type_name


def oauthlib_error(exception):
    """oauthlib's error as a ClientError, or None for an exception that is not oauthlib's. Its
    errors carry the RFC 6749 §5.2 code in .error; a few codes are its own conditions."""
    if not isinstance(exception, OAuth2Error):
        return None
    code = exception.error
    if code in ("token_expired", "missing_token"):
        return ClientError("authorization_required", str(exception), type_name=type_name(exception))
    if code in ("mismatching_state", "insecure_transport"):
        return ClientError("protocol", str(exception), type_name=type_name(exception))
    return refusal(exception, code)
