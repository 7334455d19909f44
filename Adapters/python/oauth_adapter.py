"""The OAuthConformance adapter protocol for Python client libraries (docs/adapter-protocol.md).

A library adapter subclasses `Adapter`, fills in the operations its library can do, and calls
`serve(MyAdapter())`. This module does the rest: reading one JSON request a line from stdin,
answering one JSON line on stdout, running `concurrently` batches on threads (an adapter for an
asynchronous library overrides `Adapter.concurrently` to run them as tasks), and turning
exceptions into errors as the protocol reports them: what the library surfaced (an HTTP status,
an RFC 6749 §5.2 code), from which the harness derives the category, and a category only for
what neither tells. stdout is kept for the protocol: whatever the library prints
goes to stderr, which the harness shows in its report.
"""

import json
import logging
import os
import sys
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor

PROTOCOL = 1

log = logging.getLogger("adapter")


class ClientError(Exception):
    """An error the client surfaced to the application, as the protocol reports it.

    oauth_error: the RFC 6749 §5.2 code as the library surfaced it (an attribute of its
    exception), never one the adapter dug out of the response itself; status: the HTTP status the
    library surfaced with its error (an exception's response), likewise. The harness derives the
    category from them: a 5xx or 429 is transient, a code goes by its one table. category is for
    what neither tells (tls, protocol, id_token, userinfo, unsupported, unexpected, a dropped
    connection as transient, nothing to send as authorization_required); None when they tell.
    """

    def __init__(self, category, message, oauth_error=None, type_name=None, status=None):
        super().__init__(message)
        self.category = category
        self.message = message
        self.oauth_error = oauth_error
        self.type_name = type_name
        self.status = status


class AuthorizationAsked:
    """What an operation answered by an outcome returns when its library asks the user to authorize
    in the middle of the call (docs/adapter-protocol/messages.md, "An authorization inside a call"):
    the URL its redirect handler was given, answered as `authorization_url`; the library's call
    stays open, and `complete_authorization` answers its outcome (or asks again)."""

    def __init__(self, url):
        self.url = url


def refusal(exception, code):
    """A refusal the library surfaced with its RFC 6749 §5.2 code, as it surfaced it: the harness
    reads the code; a refusal without one (the library gave none) is oauth_error."""
    return ClientError(None if code else "oauth_error", str(exception), oauth_error=code, type_name=type_name(exception))


def type_name(exception):
    return f"{type(exception).__module__}.{type(exception).__qualname__}"


# Python's own programming errors: raised from deep inside a library, they are a crash, never a
# refusal the library meant (a deliberate refusal is its own error class, or a ValueError with its reason).
CRASHES = (AttributeError, TypeError, KeyError, IndexError, NameError, AssertionError, ZeroDivisionError, RecursionError)


def caused_by(exception, kind, depth=8):
    """Whether `kind` is in the exception's chain (__cause__, else __context__), a few links deep:
    an HTTP library wraps the ssl.SSLError that tells a TLS refusal from another failure."""
    while exception is not None and depth > 0:
        if isinstance(exception, kind):
            return True
        exception = exception.__cause__ or exception.__context__
        depth -= 1
    return False


def transport_error(exception):
    """requests' own failures: TLS, connection and timeout errors; None for anything else."""
    import requests

    if isinstance(exception, requests.exceptions.SSLError):
        return ClientError("tls", str(exception), type_name=type_name(exception))
    if isinstance(exception, (requests.exceptions.ConnectionError, requests.exceptions.Timeout)):
        return ClientError("transient", str(exception), type_name=type_name(exception))
    if isinstance(exception, requests.exceptions.HTTPError):
        # raise_for_status: the status is the harness's to read (a 5xx or 429 is transient); any
        # other is an answer the library could not use.
        status = exception.response.status_code if exception.response is not None else None
        return ClientError("protocol", str(exception), type_name=type_name(exception), status=status)
    return None


def client_assertion_jwk(environment):
    """The private key of a client registered for private_key_jwt (the environment's
    client_assertion_jwk: the harness sends the JWK as JSON text; an object is taken as is) as a
    dict, or None when the client uses its secret."""
    value = environment.get("client_assertion_jwk")
    if not value:
        return None
    return json.loads(value) if isinstance(value, str) else dict(value)


def saved_token(saved, why_bearer_only):
    """A saved session (the restore_tokens message) as the token dict Python's OAuth libraries
    take from an application (authlib's and requests-oauthlib's `token=`): its members that are
    there, nothing the message does not carry. Only a Bearer session: neither library signs a
    request with any other token type, so a DPoP-bound one is a session it cannot take (why_bearer_only
    says where the library decides that)."""
    if str(saved.get("token_type", "")).lower() != "bearer":
        raise ClientError("unsupported", f"a {saved.get('token_type')} session cannot be restored: {why_bearer_only}")
    members = ("access_token", "token_type", "refresh_token", "expires_at", "scope", "id_token")
    return {name: saved[name] for name in members if saved.get(name) is not None}


class Adapter:
    """One client library behind the protocol. Override what the library can do; an operation
    left alone answers `unsupported`, and the harness skips scenarios that need it as long as
    the profile does not declare the capability."""

    name = "python-client"
    version = "0"
    capabilities = []

    def reset(self, environment):
        """A new scenario: forget everything; `environment` has the provider's URLs, credentials,
        `ca_file` (or None) and `storage_dir`."""
        raise NotImplementedError

    def login(self, grant):
        """Obtain tokens with `grant` (password, client_credentials, refresh_token)."""
        raise ClientError("unsupported", f"login {grant} is not implemented")

    def authorization_url(self):
        raise ClientError("unsupported", "the authorization code flow is not implemented")

    def complete_authorization(self, redirect_url):
        raise ClientError("unsupported", "the authorization code flow is not implemented")

    def mcp_authorization_url(self):
        """An MCP client's sign-in (capability mcp_discovery): have the library make the
        application's first call to the environment's mcp_server_url, and return the authorization
        URL it asks the browser to open once it has discovered its authorization server from the
        401; complete_authorization ends it."""
        raise ClientError("unsupported", "MCP authorization discovery is not implemented")

    # A native app's sign-in, RFC 8252 (sign_in: [native_app]).

    def begin_native_sign_in(self):
        """Start the library's interactive sign-in (its own loopback listener) and return the URL
        it asked the system browser to open, while it goes on waiting for the redirect."""
        raise ClientError("unsupported", "a native app's sign-in is not implemented")

    def finish_native_sign_in(self):
        """Wait, bounded, for the interactive sign-in begun last to return; raise what it raised."""
        raise ClientError("unsupported", "a native app's sign-in is not implemented")

    def request(self, method, url, headers, body):
        """Call the resource as the application would; return the requests.Response."""
        raise ClientError("unsupported", "request is not implemented")

    def restart(self):
        raise ClientError("unsupported", "restart is not implemented")

    def restore_tokens(self, saved):
        """The `tokens` sign-in: make `saved` the client's own session without a request, the way
        the library's documentation has an application hand it the tokens it stored. `saved` is
        the message: access_token, token_type (Bearer, or DPoP for a bound session),
        refresh_token, expires_at (Unix seconds on the clock of now, or None), scope, and
        id_token where the harness gives one."""
        raise ClientError("unsupported", "this client takes no saved session")

    # OpenID Connect (capability openid).

    def sign_in_url(self):
        """The authentication request's URL (scope openid, a fresh nonce)."""
        raise ClientError("unsupported", "OpenID Connect sign-in is not implemented")

    def complete_sign_in(self, redirect_url):
        """Check the redirect, redeem the code, validate the ID token; keep no token of a refused one."""
        raise ClientError("unsupported", "OpenID Connect sign-in is not implemented")

    def userinfo(self):
        """The signed-in user's claims from the userinfo endpoint, as a dict."""
        raise ClientError("unsupported", "userinfo is not implemented")

    def identity(self):
        """{iss, sub} of the ID token accepted last, or None."""
        return None

    # A third-party sign-in's leg 2 (capability id_token_exchange).

    def exchange(self):
        """Trade the signed-in user's ID token at the app server (environment field
        app_server_token_endpoint) for the app's tokens; nobody signed in is authorization_required."""
        raise ClientError("unsupported", "exchanging the sign-in at an app server is not implemented")

    # The device authorization grant, RFC 8628 (capability device_grant).

    def device_authorization(self):
        """Start a device authorization (§3.1); return what the application shows the user: a dict
        with user_code, verification_uri and verification_uri_complete (or None)."""
        raise ClientError("unsupported", "the device authorization grant is not implemented")

    def device_poll(self):
        """One step of the polling (§3.4-3.5): ("wait", seconds) while the flow goes on; once it
        ended, return as an outcome operation does (tokens obtained) or raise (access_denied,
        expired_token, ...)."""
        raise ClientError("unsupported", "the device authorization grant is not implemented")

    def tokens(self):
        """The tokens held now: dict with access_token, refresh_token, expires_at; or None."""
        return None

    def advance(self):
        """Virtual time moved; libfaketime already shows the adapter the new time."""

    def end(self):
        """The scenario is over: close connections (the provider is about to stop)."""

    def concurrently(self, operations):
        """Runs a `concurrently` batch; returns one outcome per operation, in order. By default
        every operation runs on a thread of its own, released together by a barrier so that they
        really overlap, as an application's simultaneous calls do. An adapter for an asynchronous
        library overrides this to run them as tasks on its event loop instead."""
        start = threading.Barrier(len(operations))

        def run(operation):
            start.wait()
            return outcome(self, operation)

        with ThreadPoolExecutor(max_workers=max(1, len(operations))) as pool:
            return list(pool.map(run, operations))

    # What the application persists, the way an application does: as JSON in a file of the
    # scenario's storage_dir (token_file, set at reset), which outlives restart.
    token_file = None

    def persist(self, state):
        with open(self.token_file, "w") as file:
            json.dump(state, file)

    def persisted(self):
        """What persist() last wrote, or None."""
        if not os.path.exists(self.token_file):
            return None
        with open(self.token_file) as file:
            return json.load(file)

    def classify(self, exception):
        """The library's exception as a ClientError; the default knows requests' transport
        errors, calls Python's programming errors (CRASHES) unexpected, and everything else a
        protocol error (the library refused what it was given)."""
        message = str(exception) or repr(exception)
        if isinstance(exception, CRASHES):
            return ClientError("unexpected", message, type_name=type_name(exception))
        return transport_error(exception) or ClientError("protocol", message, type_name=type_name(exception))


class SessionAdapter(Adapter):
    """An adapter whose library works through a requests.Session subclass kept in self.session."""

    session = None

    def request(self, method, url, headers, body):
        return self.session.request(method, url, headers=headers, data=body)

    def tokens(self):
        token = self.session.token
        if not token or not token.get("access_token"):
            return None
        return {"access_token": token.get("access_token"), "refresh_token": token.get("refresh_token"), "expires_at": token.get("expires_at")}

    def end(self):
        self.session.close()


def call(adapter, operation):
    """Runs one login, request, restart, restore_tokens, complete_authorization, complete_sign_in,
    finish_native_sign_in, userinfo or exchange on the adapter; returns what its method returned (for a request, the response; for userinfo,
    the claims)."""
    op = operation.get("op")
    if op == "login":
        return adapter.login(operation["grant"])
    if op == "request":
        return adapter.request(operation["method"], operation["url"], operation.get("headers") or {}, operation.get("body"))
    if op == "restart":
        return adapter.restart()
    if op == "restore_tokens":
        return adapter.restore_tokens(operation)
    if op == "complete_authorization":
        return adapter.complete_authorization(operation["redirect_url"])
    if op == "complete_sign_in":
        return adapter.complete_sign_in(operation["redirect_url"])
    if op == "finish_native_sign_in":
        return adapter.finish_native_sign_in()
    if op == "userinfo":
        return adapter.userinfo()
    if op == "exchange":
        return adapter.exchange()
    raise ClientError("unsupported", f"unknown operation {op}")


def success(op, result):
    """The answer's fields for an operation that worked; `result` is what the adapter returned
    (a response with status_code and text, for a request)."""
    if isinstance(result, AuthorizationAsked):
        return {"ok": True, "authorization_url": result.url}
    if op == "request" or (op == "complete_authorization" and hasattr(result, "status_code")):
        # complete_authorization ends the call that asked for the user: the call's outcome.
        return {"ok": True, "status": result.status_code, "body": result.text}
    if op == "restart":
        return {"ok": True}
    if op == "userinfo":
        return {"ok": True, "status": 200, "body": json.dumps(result)}
    return {"ok": True, "status": 200}


def outcome(adapter, operation):
    """Runs one operation that answers an outcome (see call); returns the answer's fields."""
    op = operation.get("op")
    try:
        return success(op, call(adapter, operation))
    except Exception as exception:  # the library's error, reported as the application sees it
        return failure(adapter, op, exception)


def _handle(adapter, message):
    op = message.get("op")
    if op == "hello":
        if message.get("protocol") != PROTOCOL:
            return {"ok": False, "error": {"category": "unsupported", "message": f"this adapter speaks protocol {PROTOCOL}"}}
        return {"ok": True, "protocol": PROTOCOL, "name": adapter.name, "version": adapter.version, "capabilities": adapter.capabilities}
    if op == "reset":
        adapter.reset(message["environment"])
        return {"ok": True}
    if op == "concurrently":
        return {"ok": True, "outcomes": adapter.concurrently(message["operations"])}
    if op in ("authorization_url", "mcp_authorization_url", "sign_in_url"):
        try:
            return {"ok": True, "url": getattr(adapter, op)()}
        except Exception as exception:
            return failure(adapter, op, exception)
    if op == "begin_native_sign_in":
        try:
            return {"ok": True, "open_url": adapter.begin_native_sign_in()}
        except Exception as exception:
            return failure(adapter, op, exception)
    if op == "device_authorization":
        try:
            prompt = adapter.device_authorization()
        except Exception as exception:
            return failure(adapter, op, exception)
        return {"ok": True, "user_code": prompt["user_code"], "verification_uri": prompt["verification_uri"],
                "verification_uri_complete": prompt.get("verification_uri_complete")}
    if op == "device_poll":
        try:
            result = adapter.device_poll()
        except Exception as exception:
            return failure(adapter, op, exception)
        if isinstance(result, tuple) and len(result) == 2 and result[0] == "wait":
            return {"ok": True, "wait": result[1]}
        return success(op, result)
    if op == "tokens":
        return {"ok": True, "tokens": adapter.tokens()}
    if op == "identity":
        return {"ok": True, "identity": adapter.identity()}
    if op == "advance":
        adapter.advance()
        return {"ok": True}
    if op in ("end", "shutdown"):
        adapter.end()
        return {"ok": True}
    return outcome(adapter, message)


def failure(adapter, op, exception):
    """An `ok: false` answer: the exception as the adapter classifies it."""
    error = exception if isinstance(exception, ClientError) else adapter.classify(exception)
    log.info("%s failed: %s: %s", op, error.type_name or "ClientError", error.message)
    fields = {"message": error.message}
    if error.category:
        fields["category"] = error.category
    if error.oauth_error:
        fields["oauth_error"] = error.oauth_error
    if error.status is not None:
        fields["status"] = error.status
    if error.type_name:
        fields["type"] = error.type_name
    return {"ok": False, "error": fields}


def serve(adapter):
    """The protocol loop: until stdin ends or `shutdown` comes."""
    # The protocol owns the real stdout; print() and libraries that write to stdout go to stderr.
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1, encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    logging.basicConfig(
        stream=sys.stderr, level=os.environ.get("ADAPTER_LOG_LEVEL", "INFO"),
        format="%(asctime)s %(threadName)s %(name)s %(levelname)s %(message)s",
    )
    lock = threading.Lock()
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        if not line.strip():
            continue
        message = json.loads(line)
        log.info("<- %s", message.get("op"))
        try:
            answer = _handle(adapter, message)
        except Exception:  # a bug in the adapter, not the library: say so and carry on
            answer = {"fault": traceback.format_exc()}
        answer["id"] = message.get("id")
        with lock:
            protocol_out.write(json.dumps(answer) + "\n")
        if message.get("op") == "shutdown":
            return
