"""A small OAuth 2.0 client written from the RFCs (6749, 6750, 7636, 9207, 9700) on `requests` alone.

It exists to be a second conforming client, designed apart from the bundled Swift reference
client, so that a scenario only one design passes shows up as a defective scenario. Where the
specifications leave the choice to the client it deliberately chooses otherwise:

* Callers WAIT for a refresh already under way before sending their request (the reference sends
  them with the old token and replays); every waiter shares the refresh's outcome, failure included.
* Two refresh policies: reactive (refresh only after a 401 ``invalid_token`` from the resource, or
  when the application asks) and proactive (a window, 300 s by default, clamped to half the
  lifetime for short tokens, plus the 401 path).
* Client authentication with client_id/client_secret in the request body (RFC 6749 §2.3.1), not
  HTTP Basic.
* After a 5xx, 429 or transport failure at the token endpoint it tries once more after a short
  back-off with jitter (at most two attempts per token request), unless the answer carried
  ``Retry-After``: then it does not retry, and sends no token request before the instant named.
* Only a ``Bearer`` challenge with ``error="invalid_token"`` is taken as "a new token may help".
* A second 401 after the one refresh-and-replay is handed to the application as a response.

Time is ``time.time()`` throughout (libfaketime steers it under the harness). Each class below has
one responsibility; ``IndependentClient`` only wires them together.
"""

from __future__ import annotations

import base64
import dataclasses
import email.utils
import hashlib
import hmac
import json
import logging
import math
import os
import random
import re
import secrets
import tempfile
import threading
import time
import urllib.parse
from typing import Callable, Optional

import requests
from requests.adapters import HTTPAdapter

__version__ = "0.1.0"

log = logging.getLogger("independent-client")

# Error categories the client surfaces (the adapter protocol's vocabulary).
AUTHORIZATION_REQUIRED = "authorization_required"
INVALID_CLIENT = "invalid_client"
OAUTH_ERROR = "oauth_error"
TRANSIENT = "transient"
PROTOCOL = "protocol"
TLS = "tls"
UNSUPPORTED = "unsupported"


class ClientFailure(Exception):
    """What the client tells the application when it cannot do what was asked.

    ``category`` says what the application can do about it; ``oauth_error`` is the RFC 6749 §5.2
    (or §4.1.2.1) code the provider sent, when it sent one. Messages never quote a credential.
    """

    def __init__(self, category: str, message: str, oauth_error: Optional[str] = None):
        super().__init__(message)
        self.category = category
        self.message = message
        self.oauth_error = oauth_error

    def copy(self) -> "ClientFailure":
        """A fresh exception with the same content, for each thread that shares one outcome."""
        return ClientFailure(self.category, self.message, self.oauth_error)


# ---------------------------------------------------------------------------------------------
# Configuration and tokens


@dataclasses.dataclass(frozen=True)
class ClientConfig:
    token_endpoint: str
    client_id: str
    client_secret: str
    storage_dir: Optional[str] = None
    authorization_endpoint: Optional[str] = None
    redirect_uri: Optional[str] = None
    issuer: Optional[str] = None
    username: Optional[str] = None
    password: Optional[str] = None
    ca_file: Optional[str] = None
    # None: no proactive refresh at all (reactive only). A number: seconds before expiry.
    refresh_window: Optional[float] = None
    connect_timeout: float = 5.0
    read_timeout: float = 10.0


@dataclasses.dataclass(frozen=True)
class TokenSet:
    access_token: str
    refresh_token: Optional[str]
    # Unix seconds on the client's own clock, or None: no stated lifetime (used until a 401).
    expires_at: Optional[float]
    received_at: float
    # The grant that started this session; a client_credentials session renews by asking again.
    grant: str

    @property
    def lifetime(self) -> Optional[float]:
        return None if self.expires_at is None else self.expires_at - self.received_at

    def expired(self, now: float) -> bool:
        return self.expires_at is not None and now >= self.expires_at

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @staticmethod
    def from_json(data: dict) -> "TokenSet":
        return TokenSet(
            access_token=data["access_token"], refresh_token=data.get("refresh_token"),
            expires_at=data.get("expires_at"), received_at=data.get("received_at", 0.0), grant=data.get("grant", "unknown"),
        )


class TokenStore:
    """The tokens held now, in memory and as JSON in the storage directory; every change is
    written at once (atomically), so a relaunched application finds exactly what was last held."""

    FILE_NAME = "independent-client-tokens.json"

    def __init__(self, storage_dir: Optional[str]):
        self._path = os.path.join(storage_dir, self.FILE_NAME) if storage_dir else None
        self._lock = threading.Lock()
        self._tokens = self._load()

    def _load(self) -> Optional[TokenSet]:
        if not self._path or not os.path.exists(self._path):
            return None
        try:
            with open(self._path, encoding="utf-8") as file:
                saved = json.load(file)
            return TokenSet.from_json(saved["tokens"]) if saved.get("tokens") else None
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.warning("the persisted tokens could not be read (%s); starting without tokens", type(error).__name__)
            return None

    def current(self) -> Optional[TokenSet]:
        with self._lock:
            return self._tokens

    def replace(self, tokens: Optional[TokenSet]) -> None:
        with self._lock:
            self._tokens = tokens
            self._save(tokens)

    def discard(self) -> None:
        self.replace(None)

    def _save(self, tokens: Optional[TokenSet]) -> None:
        if not self._path:
            return
        directory = os.path.dirname(self._path)
        descriptor, temporary = tempfile.mkstemp(prefix=".tokens-", dir=directory)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump({"version": 1, "tokens": tokens.to_json() if tokens else None}, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, self._path)


# ---------------------------------------------------------------------------------------------
# Reading what the token endpoint answered


class ErrorMapper:
    """Which category each failure belongs to (RFC 6749 §5.2; RFC 6585; RFC 9110)."""

    # Codes that are a definitive answer about this request, whatever status carried them.
    DEFINITIVE_CODES = {
        "invalid_request", "invalid_client", "invalid_grant", "unauthorized_client",
        "unsupported_grant_type", "invalid_scope", "access_denied",
    }

    @staticmethod
    def server_trouble(status: int) -> bool:
        return status >= 500 or status == 429

    @classmethod
    def for_code(cls, code: str, status: int) -> str:
        if code == "invalid_client":
            return INVALID_CLIENT
        if code in ("invalid_grant", "access_denied"):
            return AUTHORIZATION_REQUIRED
        if code in cls.DEFINITIVE_CODES:
            return OAUTH_ERROR
        # temporarily_unavailable, server_error, a vendor's code: with a 5xx/429 it is an outage.
        return TRANSIENT if cls.server_trouble(status) else OAUTH_ERROR

    @classmethod
    def error_response(cls, code: str, description: Optional[str], status: int) -> ClientFailure:
        detail = f": {description}" if isinstance(description, str) and description else ""
        return ClientFailure(cls.for_code(code, status), f"the token endpoint refused the request ({status} {code}){detail}", oauth_error=code)

    @classmethod
    def codeless_response(cls, status: int, what: str) -> ClientFailure:
        if cls.server_trouble(status):
            return ClientFailure(TRANSIENT, f"the token endpoint is unavailable (HTTP {status}, {what})")
        if 300 <= status < 400:
            return ClientFailure(PROTOCOL, f"the token endpoint answered a redirect (HTTP {status}); redirects are not followed")
        return ClientFailure(PROTOCOL, f"the token endpoint answered HTTP {status} with {what}")

    @staticmethod
    def transport(error: Exception, what: str) -> ClientFailure:
        if isinstance(error, requests.exceptions.SSLError):
            return ClientFailure(TLS, f"{what}: the TLS handshake failed ({type(error).__name__})")
        if isinstance(error, (requests.exceptions.ConnectionError, requests.exceptions.Timeout, requests.exceptions.ChunkedEncodingError)):
            return ClientFailure(TRANSIENT, f"{what}: the connection failed ({type(error).__name__}: {error})")
        if isinstance(error, requests.exceptions.RequestException):
            return ClientFailure(PROTOCOL, f"{what}: {type(error).__name__}: {error}")
        raise error


class TokenResponseReader:
    """Turns one token endpoint answer into a TokenSet, or the ClientFailure it amounts to
    (RFC 6749 §5.1, §5.2, §6)."""

    LONGEST_LIFETIME = 365 * 86_400.0  # a huge expires_in is clamped to a year

    def read(self, status: int, body: bytes, received_at: float, grant: str, previous: Optional[TokenSet]) -> TokenSet:
        members = self._json_object(body)
        if members is None:
            raise ErrorMapper.codeless_response(status, "a body that is not a JSON object")
        code = members.get("error")
        if code is not None:
            # An error member makes it an error, even with status 200.
            raise ErrorMapper.error_response(str(code), members.get("error_description"), status)
        if status != 200:
            raise ErrorMapper.codeless_response(status, "no error code")
        access_token = members.get("access_token")
        if not isinstance(access_token, str) or not access_token:
            raise ClientFailure(PROTOCOL, "the token response carries no access_token (RFC 6749 §5.1)")
        token_type = members.get("token_type")
        if not isinstance(token_type, str):
            raise ClientFailure(PROTOCOL, "the token response carries no token_type (RFC 6749 §5.1)")
        if token_type.lower() != "bearer":
            raise ClientFailure(PROTOCOL, f"token_type {token_type[:40]!r} is not supported; this client uses Bearer tokens only (RFC 6749 §7.1)")
        lifetime = self.lifetime(members.get("expires_in"))
        return TokenSet(
            access_token=access_token,
            refresh_token=self._refresh_token(members.get("refresh_token"), previous),
            expires_at=None if lifetime is None else received_at + lifetime,  # from receipt, never the server's Date
            received_at=received_at,
            grant=grant,
        )

    @staticmethod
    def _json_object(body: bytes) -> Optional[dict]:
        try:
            value = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return None
        return value if isinstance(value, dict) else None

    @classmethod
    def lifetime(cls, value) -> Optional[float]:
        """Seconds, or None for no stated lifetime: absent, null, zero, negative or unreadable."""
        if isinstance(value, bool):
            return None
        if isinstance(value, (int, float)):
            seconds = float(value)
        elif isinstance(value, str):
            try:
                seconds = float(value.strip())
            except ValueError:
                return None
        else:
            return None
        if not math.isfinite(seconds) or seconds <= 0:
            return None
        return min(seconds, cls.LONGEST_LIFETIME)

    @staticmethod
    def _refresh_token(value, previous: Optional[TokenSet]) -> Optional[str]:
        # A new (rotated) one replaces; absent, null or "" leaves the one sent in force (RFC 6749 §6).
        if isinstance(value, str) and value:
            return value
        return previous.refresh_token if previous else None


# ---------------------------------------------------------------------------------------------
# Talking to the token endpoint


class RetryAfterGate:
    """RFC 9110 §10.2.3: after a Retry-After, no token request before the instant it names."""

    def __init__(self, clock: Callable[[], float]):
        self._clock = clock
        self._lock = threading.Lock()
        self._quiet_until: Optional[float] = None

    def check(self) -> None:
        with self._lock:
            until = self._quiet_until
        now = self._clock()
        if until is not None and now < until:
            raise ClientFailure(TRANSIENT, f"the token endpoint asked for no requests for another {math.ceil(until - now)} s (Retry-After)")

    def note(self, headers) -> bool:
        """Reads Retry-After from an answer; True when it named a time to wait for."""
        value = (headers.get("Retry-After") or "").strip()
        if not value:
            return False
        now = self._clock()
        if re.fullmatch(r"\d+", value):
            until = now + int(value)
        else:
            try:
                date = email.utils.parsedate_to_datetime(value)
            except (TypeError, ValueError):
                return False
            if date is None or date.tzinfo is None:
                return False
            until = date.timestamp()
        with self._lock:
            self._quiet_until = max(until, self._quiet_until or until)
        return True


@dataclasses.dataclass
class _Answer:
    status: int
    headers: requests.structures.CaseInsensitiveDict
    body: bytes


class TokenEndpoint:
    """POSTs grants to the token endpoint: client credentials in the body, redirects never
    followed, the answer read with a size bound, one retry after an outage unless told to wait."""

    LARGEST_BODY = 1 << 20
    ATTEMPTS = 2

    def __init__(self, config: ClientConfig, http: requests.Session, clock: Callable[[], float]):
        self._config = config
        self._http = http
        self._clock = clock
        self._gate = RetryAfterGate(clock)
        self._reader = TokenResponseReader()

    def obtain(self, form: list, grant: str, previous: Optional[TokenSet] = None) -> TokenSet:
        """Sends one token request (two attempts at most) and reads its answer."""
        self._gate.check()
        for attempt in range(1, self.ATTEMPTS + 1):
            told_to_wait = False
            try:
                answer = self._post(form)
                told_to_wait = self._gate.note(answer.headers)
                return self._reader.read(answer.status, answer.body, self._clock(), grant, previous)
            except ClientFailure as failure:
                if failure.category != TRANSIENT or told_to_wait or attempt == self.ATTEMPTS:
                    raise
                log.info("token request attempt %d failed (%s); trying once more", attempt, failure.message)
                self._back_off()

    @staticmethod
    def _back_off() -> None:
        # Real time, with jitter, so that many clients do not come back at the same instant.
        time.sleep(random.uniform(0.05, 0.15))

    def _post(self, form: list) -> _Answer:
        config = self._config
        fields = list(form) + [("client_id", config.client_id), ("client_secret", config.client_secret)]
        try:
            response = self._http.post(
                config.token_endpoint, data=fields, headers={"Accept": "application/json"},
                allow_redirects=False, stream=True, verify=config.ca_file or True,
                timeout=(config.connect_timeout, config.read_timeout),
            )
            try:
                body = self._bounded_body(response)
            finally:
                response.close()
        except requests.exceptions.RequestException as error:
            raise ErrorMapper.transport(error, "token request") from None
        return _Answer(response.status_code, response.headers, body)

    def _bounded_body(self, response: requests.Response) -> bytes:
        chunks, size = [], 0
        for chunk in response.iter_content(chunk_size=65536):
            size += len(chunk)
            if size > self.LARGEST_BODY:
                raise ClientFailure(PROTOCOL, f"the token endpoint's answer is larger than {self.LARGEST_BODY} bytes")
            chunks.append(chunk)
        return b"".join(chunks)


# ---------------------------------------------------------------------------------------------
# Single-flight refresh


class _Flight:
    def __init__(self, after_rejection: bool):
        self.after_rejection = after_rejection  # started because the resource refused the token
        self.done = threading.Event()
        self.result: Optional[TokenSet] = None
        self.failure: Optional[ClientFailure] = None


class SingleFlightRefresher:
    """At most one refresh at a time. Whoever needs one while it runs waits for it and shares
    its outcome, failure included; nobody starts a second refresh for a token already replaced."""

    def __init__(self, store: TokenStore, renew: Callable[[], TokenSet]):
        self._store = store
        self._renew = renew
        self._lock = threading.Lock()
        self._flight: Optional[_Flight] = None

    def wait_for_flight(self) -> Optional[_Flight]:
        """Blocks while a refresh runs; returns the finished flight, or None if none was running."""
        with self._lock:
            flight = self._flight
        if flight is not None:
            flight.done.wait()
        return flight

    def refresh(self, replacing: Optional[str], after_rejection: bool = False) -> Optional[TokenSet]:
        """A refresh of the tokens whose access token is `replacing` (None: whatever is held now).
        Returns the tokens to use, which may be those another caller's refresh just obtained."""
        with self._lock:
            flight = self._flight
            leading = flight is None
            if leading:
                held = self._store.current()
                if replacing is not None and (held is None or held.access_token != replacing):
                    return held  # already replaced (or discarded) by an earlier refresh
                flight = self._flight = _Flight(after_rejection)
        if leading:
            try:
                flight.result = self._renew()
            except ClientFailure as failure:
                flight.failure = failure
            finally:
                with self._lock:
                    self._flight = None
                flight.done.set()
        else:
            flight.done.wait()
        if flight.failure is not None:
            raise flight.failure.copy()
        return flight.result


# ---------------------------------------------------------------------------------------------
# The authorization code flow


def _base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class AuthorizationFlow:
    """RFC 6749 §4.1 with PKCE S256 (RFC 7636), a fresh 256-bit state (§10.10, §10.12) and the
    RFC 9207 issuer check. One redirect per authorization request: it is consumed when read."""

    def __init__(self, config: ClientConfig):
        self._config = config
        self._lock = threading.Lock()
        self._pending: Optional[tuple] = None  # (state, code_verifier)

    def start(self) -> str:
        config = self._config
        if not config.authorization_endpoint or not config.redirect_uri:
            raise ClientFailure(UNSUPPORTED, "no authorization endpoint or redirect URI configured")
        state = secrets.token_urlsafe(32)
        verifier = secrets.token_urlsafe(64)  # 86 characters of the unreserved set
        challenge = _base64url(hashlib.sha256(verifier.encode("ascii")).digest())
        with self._lock:
            self._pending = (state, verifier)
        query = urllib.parse.urlencode([
            ("response_type", "code"), ("client_id", config.client_id), ("redirect_uri", config.redirect_uri),
            ("state", state), ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ], quote_via=urllib.parse.quote)
        separator = "&" if urllib.parse.urlsplit(config.authorization_endpoint).query else "?"
        return f"{config.authorization_endpoint}{separator}{query}"

    def finish(self, redirect_url: str) -> tuple:
        """Checks the redirect; returns (code, code_verifier) or raises."""
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is None:
            raise ClientFailure(PROTOCOL, "an authorization response arrived, but no authorization request is pending")
        state, verifier = pending
        landed, expected = urllib.parse.urlsplit(redirect_url), urllib.parse.urlsplit(self._config.redirect_uri)
        if (landed.scheme, landed.netloc, landed.path) != (expected.scheme, expected.netloc, expected.path):
            raise ClientFailure(PROTOCOL, "the authorization response did not come to this client's redirect URI")
        parameters = urllib.parse.parse_qs(landed.query, keep_blank_values=True)
        for name in ("state", "iss", "code", "error"):
            if len(parameters.get(name, [])) > 1:
                raise ClientFailure(PROTOCOL, f"the authorization response repeats {name}; refusing it")
        single = {name: values[0] for name, values in parameters.items()}
        # state and iss first, error responses included: a forged redirect is never acted upon.
        if not hmac.compare_digest(single.get("state", "").encode(), state.encode()):
            raise ClientFailure(PROTOCOL, "the authorization response's state is not the one this client sent (RFC 6749 §10.12)")
        if self._config.issuer:
            # Configured with the issuer: the provider supports RFC 9207, so iss is required.
            if single.get("iss") != self._config.issuer:
                shown = "none" if "iss" not in single else repr(single["iss"][:100])
                raise ClientFailure(PROTOCOL, f"the authorization response's iss ({shown}) is not the expected issuer (RFC 9207 §2.4)")
        if "error" in single:
            code = single["error"]
            category = AUTHORIZATION_REQUIRED if code == "access_denied" else OAUTH_ERROR
            description = single.get("error_description")
            raise ClientFailure(category, f"the authorization request was refused: {code}" + (f" ({description})" if description else ""), oauth_error=code)
        code = single.get("code")
        if not code:
            raise ClientFailure(PROTOCOL, "the authorization response has neither code nor error")
        return code, verifier


# ---------------------------------------------------------------------------------------------
# Policies


class RefreshPolicy:
    """When a token is renewed before it is used. `window` None: never (reactive only)."""

    def __init__(self, window: Optional[float]):
        self.window = window

    @property
    def proactive(self) -> bool:
        return self.window is not None

    def due(self, tokens: TokenSet, now: float) -> bool:
        if self.window is None or tokens.expires_at is None:
            return False
        leeway = self.window
        if tokens.lifetime is not None:
            leeway = min(leeway, tokens.lifetime / 2)  # a short token is renewed at half-life, not always
        return now >= tokens.expires_at - leeway


def is_invalid_token_challenge(response: requests.Response) -> bool:
    """RFC 6750 §3.1: a 401 whose Bearer challenge says error="invalid_token"."""
    if response.status_code != 401:
        return False
    challenge = response.headers.get("WWW-Authenticate", "")
    if not re.match(r"\s*bearer\b", challenge, re.IGNORECASE):
        return False
    return re.search(r'\berror\s*=\s*"?invalid_token"?', challenge, re.IGNORECASE) is not None


# ---------------------------------------------------------------------------------------------
# The client


class IndependentClient:
    """An OAuth 2.0 client as an application uses it: sign in, call the resource, restart."""

    def __init__(self, config: ClientConfig, clock: Callable[[], float] = time.time):
        self._config = config
        self._clock = clock
        self._policy = RefreshPolicy(config.refresh_window)
        self._assemble()

    def _assemble(self) -> None:
        """Everything held in memory, built from the configuration and what was persisted."""
        self._http = requests.Session()
        self._http.trust_env = False  # no proxies, netrc or CA bundles from the environment
        adapter = HTTPAdapter(pool_connections=4, pool_maxsize=64, max_retries=0)
        self._http.mount("http://", adapter)
        self._http.mount("https://", adapter)
        self._store = TokenStore(self._config.storage_dir)
        self._token_endpoint = TokenEndpoint(self._config, self._http, self._clock)
        self._refresher = SingleFlightRefresher(self._store, self._renew)
        self._authorization = AuthorizationFlow(self._config)

    # -- application operations --

    def login(self, grant: str) -> None:
        config = self._config
        if grant == "password":
            form = [("grant_type", "password"), ("username", config.username or ""), ("password", config.password or "")]
        elif grant == "client_credentials":
            form = [("grant_type", "client_credentials")]
        elif grant == "refresh_token":
            self._refresher.refresh(replacing=None)  # the application asks for a refresh now
            return
        else:
            raise ClientFailure(UNSUPPORTED, f"this client cannot sign in with the {grant} grant")
        self._store.replace(self._token_endpoint.obtain(form, grant))

    def authorization_url(self) -> str:
        return self._authorization.start()

    def complete_authorization(self, redirect_url: str) -> None:
        code, verifier = self._authorization.finish(redirect_url)
        form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", self._config.redirect_uri), ("code_verifier", verifier)]
        self._store.replace(self._token_endpoint.obtain(form, "authorization_code"))

    def request(self, method: str, url: str, headers: Optional[dict] = None, body=None) -> requests.Response:
        token = self._token_to_send()
        response = self._send(method, url, headers, body, token)
        if not is_invalid_token_challenge(response):
            return response
        # One refresh (or none, if the token was already replaced) and one replay per call.
        replacement = self._refresher.refresh(replacing=token, after_rejection=True)
        if replacement is None:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "the resource rejected the access token and no tokens are held: sign in again")
        response.close()
        return self._send(method, url, headers, body, replacement.access_token)

    def restart(self) -> None:
        """As a relaunched application: drop everything in memory, reload what was persisted."""
        self.close()
        self._assemble()

    def tokens(self) -> Optional[dict]:
        held = self._store.current()
        if held is None:
            return None
        return {"access_token": held.access_token, "refresh_token": held.refresh_token, "expires_at": held.expires_at}

    def close(self) -> None:
        self._http.close()

    # -- internals --

    def _token_to_send(self) -> str:
        flight = self._refresher.wait_for_flight()  # callers wait for a refresh under way
        held = self._store.current()
        if flight is not None and flight.failure is not None:
            # The refresh this call waited for failed: the call shares its outcome, or, when that
            # was an early refresh meeting an outage, goes out with the still-valid token.
            if not self._may_keep(held, flight.failure, flight.after_rejection):
                raise flight.failure.copy()
            return held.access_token
        if held is None:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "no tokens: sign in first")
        now = self._clock()
        if not self._policy.due(held, now):
            return held.access_token
        if not self._renewable(held):
            if held.expired(now):
                raise ClientFailure(AUTHORIZATION_REQUIRED, "the access token expired and there is no refresh token: sign in again")
            return held.access_token
        try:
            renewed = self._refresher.refresh(replacing=held.access_token)
        except ClientFailure as failure:
            if self._may_keep(self._store.current(), failure, after_rejection=False):
                log.info("proactive refresh failed (%s); the access token is still valid and stays in use", failure.message)
                return self._store.current().access_token
            raise
        if renewed is None:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "no tokens: sign in again")
        return renewed.access_token

    def _may_keep(self, held: Optional[TokenSet], failure: ClientFailure, after_rejection: bool) -> bool:
        """After a failed early refresh, an access token that has not expired is still good."""
        return (
            self._policy.proactive and not after_rejection and failure.category == TRANSIENT
            and held is not None and not held.expired(self._clock())
        )

    @staticmethod
    def _renewable(tokens: TokenSet) -> bool:
        return tokens.refresh_token is not None or tokens.grant == "client_credentials"

    def _renew(self) -> TokenSet:
        """The one refresh a flight performs (RFC 6749 §6; §4.4.3 for client_credentials)."""
        held = self._store.current()
        if held is None:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "no tokens: sign in first")
        if held.refresh_token is not None:
            form = [("grant_type", "refresh_token"), ("refresh_token", held.refresh_token)]
        elif held.grant == "client_credentials":
            form = [("grant_type", "client_credentials")]  # no refresh token in this grant: ask again
        else:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "the access token cannot be renewed without a refresh token: sign in again")
        try:
            renewed = self._token_endpoint.obtain(form, held.grant, previous=held)
        except ClientFailure as failure:
            if failure.oauth_error == "invalid_grant":
                self._store.discard()  # the grant is dead: only a new sign-in helps
            raise
        self._store.replace(renewed)
        return renewed

    def _send(self, method: str, url: str, headers: Optional[dict], body, access_token: str) -> requests.Response:
        outgoing = {name: value for name, value in (headers or {}).items() if name.lower() != "authorization"}
        outgoing["Authorization"] = f"Bearer {access_token}"
        data = body.encode("utf-8") if isinstance(body, str) else body
        try:
            return self._http.request(
                method, url, headers=outgoing, data=data, allow_redirects=False,
                verify=self._config.ca_file or True, timeout=(self._config.connect_timeout, self._config.read_timeout),
            )
        except requests.exceptions.RequestException as error:
            raise ErrorMapper.transport(error, f"{method} request") from None
