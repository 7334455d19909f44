"""A small OAuth 2.0 client written from the RFCs (6749, 6750, 7636, 8628, 9207, 9449, 9700) on `requests`,
with an OpenID Connect relying party (Core 1.0, Discovery 1.0) whose JWS checks are PyJWT's.

It exists to be a second conforming client, designed apart from the bundled Swift reference
client, so that a scenario only one design passes shows up as a defective scenario. Where the
specifications leave the choice to the client it deliberately chooses otherwise:

* Callers WAIT for a refresh already under way before sending their request (the reference sends
  them with the old token and replays); every waiter shares the refresh's outcome, failure included.
* Two refresh policies: reactive (refresh only after a 401 ``invalid_token`` from the resource, or
  when the application asks) and proactive (a window, 300 s by default, clamped to half the
  lifetime for short tokens, plus the 401 path).
* Client authentication with client_id/client_secret in the request body (RFC 6749 §2.3.1), not
  HTTP Basic; or, when registered for private_key_jwt (RFC 7523 §2.2, OIDC Core §9), a fresh ES256
  assertion for every request that authenticates (every attempt of it: a retry signs anew), whose
  ``aud`` is the issuer (the reference client names the token endpoint), living 60 s from an
  ``iat`` read on the client's clock. The secret then goes nowhere. When registered for
  client_secret_jwt, the same assertion MACed HS256 with the secret (as its key, RFC 7518 §3.2:
  at least 32 bytes); the secret itself goes nowhere either.
* Pushed authorization requests (RFC 9126), when the provider has a PAR endpoint: one push per
  authorization, authenticated like a token request, tried once (no retry); the browser gets only
  ``client_id`` and ``request_uri``. A refused or failed push ends the authorization: no URL with
  the parameters in it is ever built.
* The device authorization grant (RFC 8628) as a schedule of absolute instants on the client's
  clock: each step either polls (when the next poll's instant has come) or tells the application
  how long to wait; the interval (5 s by default) grows 5 s per slow_down, the device code's
  expires_in ends the flow with expired_token without another poll, access_denied and
  expired_token end it, transient failures are retried on the schedule with a capped exponential
  back-off (at most five in a row), and the device authorization request is authenticated like a
  token request. Every poll is a single attempt.
* After a 5xx, 429 or transport failure at the token endpoint it tries once more after a short
  back-off with jitter (at most two attempts per token request), unless the answer carried
  ``Retry-After``: then it does not retry, and sends no token request before the instant named.
* DPoP (RFC 9449), when the provider takes ES256 proofs: a new EC P-256 key for every session
  (sign-in, grant, device authorization), kept with the session's tokens in the token file, so a
  relaunched application still holds the key its tokens are bound to; a refresh proves with it.
  Every token request carries a proof; a ``DPoP`` token goes to the resource with the DPoP scheme
  and a proof of that request (``ath``). Nonces are kept per server, the authorization server's
  apart from each resource origin's, and taken from every answer, successes included (§8.2); a
  ``use_dpop_nonce`` refusal is answered by one more request with the new nonce, never two.
* Only a challenge of the token's own scheme (``Bearer``, or ``DPoP`` for a bound token) with
  ``error="invalid_token"`` is taken as "a new token may help".
* A second 401 after the one refresh-and-replay is handed to the application as a response.
* OpenID Connect: the JWKS is fetched again for a key the cache lacks at most once per ID token
  (never for a token whose validation already fetched it), with no time-based rate limit; a 30 s
  clock skew for exp and iat; every audience besides this client is untrusted; a refreshed ID
  token must keep iss, sub and aud (Core §12.2), else the refresh is refused and none of its
  tokens is kept.

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

import jwt
import requests
from cryptography.hazmat.primitives.asymmetric import ec
from jwt.algorithms import ECAlgorithm
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
ID_TOKEN = "id_token"
USERINFO = "userinfo"
EXCHANGE_REFUSED = "exchange_refused"


class ClientFailure(Exception):
    """What the client tells the application when it cannot do what was asked.

    ``category`` says what the application can do about it; ``oauth_error`` is the RFC 6749 §5.2
    (or §4.1.2.1) code the provider sent, when it sent one; ``status`` is the HTTP status of the
    answer the failure is about, when there was one. Messages never quote a credential.
    """

    def __init__(self, category: str, message: str, oauth_error: Optional[str] = None, status: Optional[int] = None):
        super().__init__(message)
        self.category = category
        self.message = message
        self.oauth_error = oauth_error
        self.status = status

    def copy(self) -> "ClientFailure":
        """A fresh exception with the same content, for each thread that shares one outcome."""
        return ClientFailure(self.category, self.message, self.oauth_error, self.status)


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
    openid_configuration_url: Optional[str] = None
    id_token_signing_alg: str = "RS256"  # the registered id_token_signed_response_alg
    # The app's own server (leg 2 of a third-party sign-in): its token endpoint, whose origin also
    # serves the app's resource. None: the application has no server of its own.
    app_server_token_endpoint: Optional[str] = None
    # private_key_jwt (RFC 7523 §2.2): the client's private JWK (a dict). None: client_secret_post.
    client_assertion_key: Optional[dict] = dataclasses.field(default=None, repr=False)
    # client_secret_jwt (RFC 7523 §2.2, OIDC Core §9): assertions MACed HS256 with client_secret,
    # which is then never sent. False: client_secret_post (or private_key_jwt, with a key above).
    client_secret_jwt: bool = False
    # RFC 9126: the provider's pushed authorization request endpoint. None: plain front-channel requests.
    pushed_authorization_request_endpoint: Optional[str] = None
    # RFC 8628 §3.1: the provider's device authorization endpoint. None: no device grant.
    device_authorization_endpoint: Optional[str] = None
    # RFC 9449 §5.1: the algorithms the provider takes DPoP proofs signed with. None, or a list
    # without ES256 (the only one this client signs): no DPoP.
    dpop_signing_algs: Optional[tuple] = None
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
    # The signed-in user ({iss, sub, aud} of the ID token accepted last), persisted with the tokens.
    identity: Optional[dict] = None
    # The raw ID token of the response these tokens came in, until it is validated; never persisted.
    id_token: Optional[str] = dataclasses.field(default=None, repr=False)
    # The ID token accepted last (sign-in, or a refresh that brought one) and its exp: what leg 2 of
    # a third-party sign-in trades at the app's own server. Persisted with the tokens.
    accepted_id_token: Optional[str] = dataclasses.field(default=None, repr=False)
    accepted_id_token_exp: Optional[float] = None
    # "DPoP" when the access token is bound to dpop_key (RFC 9449 §5), "Bearer" otherwise.
    token_type: str = "Bearer"
    # The session's DPoP key, which proved the token request these tokens came from; their refresh
    # proves with it too. Persisted with them (as a private JWK).
    dpop_key: Optional["ProofKey"] = dataclasses.field(default=None, repr=False)

    @property
    def bound_key(self) -> Optional["ProofKey"]:
        """The key every use of the access token must prove, or None for a bearer token."""
        return self.dpop_key if self.token_type == "DPoP" else None

    @property
    def scheme(self) -> str:
        """The authorization scheme the access token goes with (RFC 6750 §2.1, RFC 9449 §7.1)."""
        return "DPoP" if self.bound_key is not None else "Bearer"

    @property
    def lifetime(self) -> Optional[float]:
        return None if self.expires_at is None else self.expires_at - self.received_at

    def expired(self, now: float) -> bool:
        return self.expires_at is not None and now >= self.expires_at

    def to_json(self) -> dict:
        # Field by field rather than dataclasses.asdict, which would deep-copy the key object.
        saved = {field.name: getattr(self, field.name) for field in dataclasses.fields(self) if field.name != "id_token"}
        saved["dpop_key"] = self.dpop_key.to_jwk() if self.dpop_key is not None else None
        return saved

    @staticmethod
    def from_json(data: dict) -> "TokenSet":
        return TokenSet(
            access_token=data["access_token"], refresh_token=data.get("refresh_token"),
            expires_at=data.get("expires_at"), received_at=data.get("received_at", 0.0), grant=data.get("grant", "unknown"),
            identity=data.get("identity"),
            accepted_id_token=data.get("accepted_id_token"), accepted_id_token_exp=data.get("accepted_id_token_exp"),
            token_type=data.get("token_type", "Bearer"),
            dpop_key=ProofKey.from_jwk(data["dpop_key"]) if data.get("dpop_key") else None,
        )


class TokenStore:
    """The tokens held now, in memory and as JSON in the storage directory; every change is
    written at once (atomically), so a relaunched application finds exactly what was last held."""

    FILE_NAME = "independent-client-tokens.json"

    def __init__(self, storage_dir: Optional[str], file_name: str = FILE_NAME):
        self._path = os.path.join(storage_dir, file_name) if storage_dir else None
        self._lock = threading.Lock()
        self._tokens = self._load()

    def _load(self) -> Optional[TokenSet]:
        if not self._path or not os.path.exists(self._path):
            return None
        try:
            with open(self._path, encoding="utf-8") as file:
                saved = json.load(file)
            return TokenSet.from_json(saved["tokens"]) if saved.get("tokens") else None
        except (OSError, ValueError, KeyError, TypeError, jwt.PyJWTError) as error:
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
    def error_response(cls, code: str, description: Optional[str], status: int, where: str = "the token endpoint") -> ClientFailure:
        detail = f": {description}" if isinstance(description, str) and description else ""
        return ClientFailure(cls.for_code(code, status), f"{where} refused the request ({status} {code}){detail}", oauth_error=code, status=status)

    @classmethod
    def codeless_response(cls, status: int, what: str, where: str = "the token endpoint") -> ClientFailure:
        if cls.server_trouble(status):
            return ClientFailure(TRANSIENT, f"{where} is unavailable (HTTP {status}, {what})", status=status)
        if 300 <= status < 400:
            return ClientFailure(PROTOCOL, f"{where} answered a redirect (HTTP {status}); redirects are not followed", status=status)
        return ClientFailure(PROTOCOL, f"{where} answered HTTP {status} with {what}", status=status)

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

    def read(self, status: int, body: bytes, received_at: float, grant: str, previous: Optional[TokenSet],
             proof_key: Optional["ProofKey"] = None) -> TokenSet:
        """`proof_key`: the DPoP key whose proof the request carried; only then may the answer be
        a DPoP token (RFC 9449 §5), which is bound to it."""
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
        bound = proof_key is not None and token_type.lower() == "dpop"
        if token_type.lower() != "bearer" and not bound:
            usable = "Bearer tokens, and DPoP tokens for a proof it sent" if proof_key is not None else "Bearer tokens only"
            raise ClientFailure(PROTOCOL, f"token_type {token_type[:40]!r} is not supported; this client uses {usable} (RFC 6749 §7.1)")
        lifetime = self.lifetime(members.get("expires_in"))
        id_token = members.get("id_token")
        return TokenSet(
            access_token=access_token,
            refresh_token=self._refresh_token(members.get("refresh_token"), previous),
            expires_at=None if lifetime is None else received_at + lifetime,  # from receipt, never the server's Date
            received_at=received_at,
            grant=grant,
            id_token=id_token if isinstance(id_token, str) and id_token else None,
            # A Bearer answer to a proof is the server declining to bind (RFC 9449 §7.1): used as
            # Bearer, but the key stays with the session for its refreshes.
            token_type="DPoP" if bound else "Bearer",
            dpop_key=proof_key,
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
# Proof of possession: DPoP (RFC 9449)


class ProofKey:
    """A session's DPoP key: an EC P-256 key pair signing ES256 proofs (RFC 9449 §4.2). A new one
    for every session, so that no two sessions' tokens are bound to one key."""

    ALGORITHM = "ES256"

    def __init__(self, private_key: ec.EllipticCurvePrivateKey):
        if not isinstance(private_key, ec.EllipticCurvePrivateKey) or not isinstance(private_key.curve, ec.SECP256R1):
            raise ValueError("a DPoP key must be a private P-256 key")
        self._private_key = private_key
        # §4.2: the proof's header carries the public key only.
        self.public_jwk = ECAlgorithm.to_jwk(private_key.public_key(), as_dict=True)

    @classmethod
    def generate(cls) -> "ProofKey":
        return cls(ec.generate_private_key(ec.SECP256R1()))

    @classmethod
    def from_jwk(cls, jwk: dict) -> "ProofKey":
        return cls(ECAlgorithm.from_jwk(jwk))

    def to_jwk(self) -> dict:
        """The private key as a JWK, for the token file alone."""
        return ECAlgorithm.to_jwk(self._private_key, as_dict=True)

    def sign(self, claims: dict) -> str:
        return jwt.encode(claims, self._private_key, algorithm=self.ALGORITHM, headers={"typ": "dpop+jwt", "jwk": self.public_jwk})


class DPoP:
    """Proofs and server nonces (RFC 9449 §4, §8, §9). Each request gets a proof of its own: a new
    jti, its method and its URI without query and fragment, iat from the client's clock, and with
    an access token its hash (ath). Nonces are kept per server, the authorization server's apart
    from each resource origin's even where they share an origin, since a server takes only its
    own; a server's nonce is the last one its answers carried, successes included (§8.2)."""

    AUTHORIZATION_SERVER = "authorization server"
    NONCE_HEADER = "DPoP-Nonce"

    def __init__(self, clock: Callable[[], float]):
        self._clock = clock
        self._lock = threading.Lock()
        self._nonces: dict = {}

    @staticmethod
    def offered(config: ClientConfig) -> bool:
        """Whether the provider takes the proofs this client signs."""
        return ProofKey.ALGORITHM in (config.dpop_signing_algs or ())

    @staticmethod
    def resource_server(url: str) -> str:
        parts = urllib.parse.urlsplit(url)
        return f"resource {parts.scheme.lower()}://{parts.netloc.lower()}"

    def send(self, key: ProofKey, method: str, url: str, server: str, transmit: Callable, demands_nonce: Callable,
             access_token: Optional[str] = None):
        """Sends a request with a new proof through `transmit(proof)` and returns the answer. When
        the server refuses it for want of the nonce that answer hands out (`demands_nonce`), the
        request goes once more, with another new proof carrying it; never a third time, so that
        a server moving its nonce at every request gets its refusal surfaced, not a loop."""
        sent = self._nonce(server)
        answer = transmit(self._proof(key, method, url, sent, access_token))
        handed_out = self._note(server, answer.headers)
        if handed_out in (None, sent) or not demands_nonce(answer):
            return answer  # a refusal for a nonce it already had would only repeat itself
        answer = transmit(self._proof(key, method, url, handed_out, access_token))
        self._note(server, answer.headers)
        return answer

    def _proof(self, key: ProofKey, method: str, url: str, nonce: Optional[str], access_token: Optional[str]) -> str:
        parts = urllib.parse.urlsplit(url)
        claims = {
            "jti": secrets.token_urlsafe(24), "htm": method.upper(),
            "htu": urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")), "iat": int(self._clock()),
        }
        if nonce is not None:
            claims["nonce"] = nonce
        if access_token is not None:
            claims["ath"] = _base64url(hashlib.sha256(access_token.encode("ascii", "replace")).digest())
        return key.sign(claims)

    def _nonce(self, server: str) -> Optional[str]:
        with self._lock:
            return self._nonces.get(server)

    def _note(self, server: str, headers) -> Optional[str]:
        nonce = (headers.get(self.NONCE_HEADER) or "").strip() or None
        if nonce is not None:
            with self._lock:
                self._nonces[server] = nonce
        return nonce


def token_endpoint_demands_nonce(answer: "_Answer") -> bool:
    """RFC 9449 §8: 400 with error use_dpop_nonce."""
    members = TokenResponseReader._json_object(answer.body)
    return answer.status == 400 and members is not None and members.get("error") == "use_dpop_nonce"


def resource_demands_nonce(response: requests.Response) -> bool:
    """RFC 9449 §9: 401 with a DPoP challenge whose error is use_dpop_nonce."""
    return challenge_error(response, "DPoP") == "use_dpop_nonce"


# ---------------------------------------------------------------------------------------------
# Talking to the token endpoint


class RetryAfterGate:
    """RFC 9110 §10.2.3: after a Retry-After, no token request before the instant it names."""

    def __init__(self, clock: Callable[[], float]):
        self._clock = clock
        self._lock = threading.Lock()
        self._quiet_until: Optional[float] = None

    def quiet_until(self) -> Optional[float]:
        """The instant before which no token request goes out, or None."""
        with self._lock:
            return self._quiet_until

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


class SecretInBody:
    """client_secret_post (RFC 6749 §2.3.1): client_id and client_secret as form fields."""

    def __init__(self, client_id: str, secret: str):
        self._client_id = client_id
        self._secret = secret

    def fields(self) -> list:
        return [("client_id", self._client_id), ("client_secret", self._secret)]


class ClientAssertion:
    """A JWT client assertion (RFC 7523 §2.2 and §3, OIDC Core §9): every call of `fields` makes a
    new one, so no two requests (retries included) ever carry the same one or the same jti. What
    signs it is the subclass's."""

    ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    LIFETIME = 60  # seconds from iat to exp: long enough to arrive, too short to be worth stealing

    def __init__(self, client_id: str, audience: str, clock: Callable[[], float]):
        self._client_id = client_id
        self._audience = audience
        self._clock = clock

    def _sign(self, claims: dict) -> str:
        raise NotImplementedError

    def fields(self) -> list:
        issued = int(self._clock())  # the client's clock, never the machine's wall clock directly
        claims = {
            "iss": self._client_id, "sub": self._client_id, "aud": self._audience,
            "iat": issued, "exp": issued + self.LIFETIME, "jti": secrets.token_urlsafe(24),
        }
        return [("client_id", self._client_id), ("client_assertion_type", self.ASSERTION_TYPE), ("client_assertion", self._sign(claims))]


class SignedAssertion(ClientAssertion):
    """private_key_jwt: the assertion signed ES256 with the client's private key."""

    def __init__(self, client_id: str, jwk: dict, audience: str, clock: Callable[[], float]):
        super().__init__(client_id, audience, clock)
        try:
            self._key = jwt.PyJWK(jwk)
        except (jwt.exceptions.PyJWTError, ValueError, TypeError, KeyError) as error:
            raise ClientFailure(UNSUPPORTED, f"the client's private_key_jwt key is not a usable JWK ({type(error).__name__})") from None
        if self._key.algorithm_name != "ES256" or not jwk.get("d"):
            raise ClientFailure(UNSUPPORTED, "the client's private_key_jwt key must be a private ES256 (P-256) key")
        self._kid = jwk.get("kid")

    def _sign(self, claims: dict) -> str:
        headers = {"kid": self._kid} if self._kid else None
        return jwt.encode(claims, self._key.key, algorithm="ES256", headers=headers)


class SecretMacedAssertion(ClientAssertion):
    """client_secret_jwt: the assertion MACed HS256 with the octets of the client secret (OIDC
    Core §9: its UTF-8 representation is the key). RFC 7518 §3.2 wants a key of at least 256 bits
    for HS256; a shorter secret is refused rather than used."""

    SHORTEST_SECRET = 32  # bytes

    def __init__(self, client_id: str, secret: str, audience: str, clock: Callable[[], float]):
        super().__init__(client_id, audience, clock)
        self._key = (secret or "").encode("utf-8")
        if len(self._key) < self.SHORTEST_SECRET:
            raise ClientFailure(UNSUPPORTED, f"client_secret_jwt needs a client secret of at least {self.SHORTEST_SECRET} bytes for HS256 (RFC 7518 §3.2)")

    def _sign(self, claims: dict) -> str:
        return jwt.encode(claims, self._key, algorithm="HS256")


def client_authentication(config: ClientConfig, clock: Callable[[], float]):
    """How this client proves itself wherever the provider authenticates it (token, PAR, device
    authorization)."""
    # For assertions, the issuer is the authorization server's identifier (RFC 7523 §3 allows it as aud).
    audience = config.issuer or config.token_endpoint
    if config.client_assertion_key is not None:
        return SignedAssertion(config.client_id, config.client_assertion_key, audience, clock)
    if config.client_secret_jwt:
        return SecretMacedAssertion(config.client_id, config.client_secret, audience, clock)
    return SecretInBody(config.client_id, config.client_secret)


LARGEST_BODY = 1 << 20


def post_form(config: ClientConfig, http: requests.Session, url: str, fields: list, what: str,
              headers: Optional[dict] = None) -> "_Answer":
    """One form POST: redirects never followed, the answer read with a size bound."""
    try:
        response = http.post(
            url, data=fields, headers={"Accept": "application/json", **(headers or {})},
            allow_redirects=False, stream=True, verify=config.ca_file or True,
            timeout=(config.connect_timeout, config.read_timeout),
        )
        try:
            chunks, size = [], 0
            for chunk in response.iter_content(chunk_size=65536):
                size += len(chunk)
                if size > LARGEST_BODY:
                    raise ClientFailure(PROTOCOL, f"the answer to the {what} is larger than {LARGEST_BODY} bytes")
                chunks.append(chunk)
        finally:
            response.close()
    except requests.exceptions.RequestException as error:
        raise ErrorMapper.transport(error, what) from None
    return _Answer(response.status_code, response.headers, b"".join(chunks))


class TokenEndpoint:
    """POSTs grants to a token endpoint: the client's authentication in the body (the provider's
    only), redirects never followed, the answer read with a size bound, one retry after an outage
    unless told to wait. `url` None is the provider's; the app server's gets no client credentials.
    With `dpop`, every request carries a DPoP proof (RFC 9449 §5)."""

    ATTEMPTS = 2

    def __init__(self, config: ClientConfig, http: requests.Session, clock: Callable[[], float], url: Optional[str] = None,
                 authentication=None, dpop: Optional[DPoP] = None):
        self._config = config
        self._url = url or config.token_endpoint
        # The provider's credentials never leave for another server.
        self._authentication = (authentication or client_authentication(config, clock)) if url is None else None
        self._http = http
        self._clock = clock
        self._gate = RetryAfterGate(clock)
        self._reader = TokenResponseReader()
        self._dpop = dpop

    @property
    def gate(self) -> RetryAfterGate:
        return self._gate

    def new_proof_key(self) -> Optional[ProofKey]:
        """A key for a new session's token requests, or None without DPoP."""
        return ProofKey.generate() if self._dpop is not None else None

    def obtain(self, form: list, grant: str, previous: Optional[TokenSet] = None, attempts: int = ATTEMPTS,
               proof_key: Optional[ProofKey] = None) -> TokenSet:
        """Sends one token request (`attempts` at most, two by default) and reads its answer. With
        DPoP, its proofs are by `proof_key`, else by the key of the tokens it renews (`previous`),
        else by a new key: the request begins a session."""
        self._gate.check()
        if self._dpop is None:
            proof_key = None
        elif proof_key is None:
            proof_key = (previous.dpop_key if previous is not None else None) or self.new_proof_key()
        for attempt in range(1, attempts + 1):
            told_to_wait = False
            try:
                answer = self._post(form, proof_key)
                told_to_wait = self._gate.note(answer.headers)
                return self._reader.read(answer.status, answer.body, self._clock(), grant, previous, proof_key)
            except ClientFailure as failure:
                if failure.category != TRANSIENT or told_to_wait or attempt == attempts:
                    raise
                log.info("token request attempt %d failed (%s); trying once more", attempt, failure.message)
                self._back_off()

    @staticmethod
    def _back_off() -> None:
        # Real time, with jitter, so that many clients do not come back at the same instant.
        time.sleep(random.uniform(0.05, 0.15))

    def _post(self, form: list, proof_key: Optional[ProofKey]) -> _Answer:
        def transmit(proof: Optional[str] = None) -> _Answer:
            fields = list(form)
            if self._authentication is not None:
                fields += self._authentication.fields()  # per request: a retry carries a new assertion
            return post_form(self._config, self._http, self._url, fields, "token request", {"DPoP": proof} if proof else None)

        if proof_key is None:
            return transmit()
        return self._dpop.send(proof_key, "POST", self._url, DPoP.AUTHORIZATION_SERVER, transmit, token_endpoint_demands_nonce)


class RequestPusher:
    """RFC 9126 §2: POSTs an authorization request's parameters to the PAR endpoint, the client
    authenticated as at the token endpoint, and returns the request_uri of the 201 answer. Tried
    once: any failure is the authorization's failure (an error answer mapped as at the token
    endpoint, 5xx/429/transport transient), never a reason to go by the front channel instead."""

    WHERE = "the pushed authorization request endpoint"

    def __init__(self, config: ClientConfig, http: requests.Session, authentication):
        self._config = config
        self._http = http
        self._authentication = authentication

    def push(self, parameters: list) -> str:
        # client_id travels with the authentication fields, once (§2.1).
        fields = [(name, value) for name, value in parameters if name != "client_id"] + self._authentication.fields()
        answer = post_form(self._config, self._http, self._config.pushed_authorization_request_endpoint, fields, "pushed authorization request")
        members = TokenResponseReader._json_object(answer.body)
        if members is not None and members.get("error") is not None:
            raise ErrorMapper.error_response(str(members["error"]), members.get("error_description"), answer.status, self.WHERE)
        if answer.status not in (200, 201):
            raise ErrorMapper.codeless_response(answer.status, "no error code" if members is not None else "a body that is not a JSON object", self.WHERE)
        request_uri = members.get("request_uri") if members is not None else None
        if not isinstance(request_uri, str) or not request_uri:
            raise ClientFailure(PROTOCOL, f"{self.WHERE} answered without a request_uri (RFC 9126 §2.2)")
        return request_uri


# ---------------------------------------------------------------------------------------------
# The device authorization grant (RFC 8628)


@dataclasses.dataclass(frozen=True)
class DevicePrompt:
    """What the application shows the user (RFC 8628 §3.3)."""
    user_code: str
    verification_uri: str
    verification_uri_complete: Optional[str]


class DeviceAuthorization:
    """One device authorization, from its request (§3.1) to its end, polled on a schedule of
    absolute instants on the client's clock. Each `step` either polls the token endpoint (when the
    next poll's instant has come) or says how long the application should wait for it:

    * the interval is the response's (5 s when absent, §3.2), 5 s longer for that and every later
      poll after each slow_down (§3.5); a poll never comes sooner than the interval after the last;
    * the device code's own lifetime (expires_in, read on this client's clock) ends the flow with
      expired_token, without a poll once it has passed;
    * access_denied and expired_token end it (§3.5); so does any other definitive error;
    * a transient failure (5xx, 429, a connection that failed) is retried on the schedule, with
      an exponential back-off from the interval (capped at a minute) and at most MAX_TRANSIENT
      in a row; a Retry-After pushes the next poll to the instant it names; every poll is a
      single attempt, never an immediate retry that would come sooner than the interval.
    """

    GRANT = "urn:ietf:params:oauth:grant-type:device_code"
    WHERE = "the device authorization endpoint"
    DEFAULT_INTERVAL = 5.0  # §3.2
    SLOW_DOWN_STEP = 5.0  # §3.5
    DEFAULT_LIFETIME = 1800.0  # expires_in is REQUIRED; a response without a usable one gets 30 min
    MAX_TRANSIENT = 5
    LONGEST_BACK_OFF = 60.0

    def __init__(self, config: ClientConfig, http: requests.Session, authentication, token_endpoint: TokenEndpoint,
                 clock: Callable[[], float]):
        self._config = config
        self._http = http
        self._authentication = authentication
        self._token_endpoint = token_endpoint
        self._clock = clock
        self._device_code: Optional[str] = None
        self._interval = self.DEFAULT_INTERVAL
        self._expires_at = 0.0
        self._next_poll_at = 0.0
        self._transient_in_a_row = 0
        self._ended: Optional[ClientFailure] = None
        self._proof_key: Optional[ProofKey] = None  # the session's DPoP key, for every poll

    def start(self) -> DevicePrompt:
        """§3.1-3.2: the client authenticated as at the token endpoint; tried once."""
        endpoint = self._config.device_authorization_endpoint
        if not endpoint:
            raise ClientFailure(UNSUPPORTED, "the provider has no device authorization endpoint")
        answer = post_form(self._config, self._http, endpoint, self._authentication.fields(), "device authorization request")
        received_at = self._clock()
        members = TokenResponseReader._json_object(answer.body)
        if members is not None and members.get("error") is not None:
            raise ErrorMapper.error_response(str(members["error"]), members.get("error_description"), answer.status, self.WHERE)
        if answer.status != 200:
            raise ErrorMapper.codeless_response(answer.status, "no error code" if members is not None else "a body that is not a JSON object", self.WHERE)
        device_code, user_code, verification_uri = (members.get(name) for name in ("device_code", "user_code", "verification_uri"))
        for name, value in (("device_code", device_code), ("user_code", user_code), ("verification_uri", verification_uri)):
            if not isinstance(value, str) or not value:
                raise ClientFailure(PROTOCOL, f"{self.WHERE} answered without a {name} (RFC 8628 §3.2)")
        complete = members.get("verification_uri_complete")
        interval = TokenResponseReader.lifetime(members.get("interval"))
        lifetime = TokenResponseReader.lifetime(members.get("expires_in"))
        self._device_code = device_code
        self._interval = max(interval, 1.0) if interval is not None else self.DEFAULT_INTERVAL
        self._expires_at = received_at + (lifetime if lifetime is not None else self.DEFAULT_LIFETIME)
        self._next_poll_at = received_at  # the first poll may go at once
        self._proof_key = self._token_endpoint.new_proof_key()
        return DevicePrompt(user_code, verification_uri, complete if isinstance(complete, str) and complete else None)

    def step(self):
        """A float (seconds to wait before the next step) while the flow goes on, or the TokenSet
        it ended with; raises the ClientFailure that ended it."""
        if self._ended is not None:
            raise self._ended.copy()
        if self._device_code is None:
            raise ClientFailure(PROTOCOL, "no device authorization is under way: start one first")
        now = self._clock()
        if now >= self._expires_at:
            self._end(ClientFailure(AUTHORIZATION_REQUIRED, "the device code expired before the user acted (its expires_in has passed)", oauth_error="expired_token"))
        quiet_until = self._token_endpoint.gate.quiet_until()
        due_at = max(self._next_poll_at, quiet_until or 0.0)
        if now < due_at:
            return self._seconds(min(due_at, self._expires_at) - now)
        return self._poll(now)

    def _poll(self, now: float):
        form = [("grant_type", self.GRANT), ("device_code", self._device_code)]
        try:
            tokens = self._token_endpoint.obtain(form, "device_code", attempts=1, proof_key=self._proof_key)
        except ClientFailure as failure:
            return self._after_failure(now, failure)
        self._device_code = None  # used: the flow is over
        return tokens

    def _after_failure(self, now: float, failure: ClientFailure) -> float:
        code = failure.oauth_error
        if code == "authorization_pending":
            self._transient_in_a_row = 0
            return self._schedule(now, self._interval)
        if code == "slow_down":
            self._transient_in_a_row = 0
            self._interval += self.SLOW_DOWN_STEP
            return self._schedule(now, self._interval)
        if code == "access_denied":
            self._end(ClientFailure(AUTHORIZATION_REQUIRED, "the user denied the device authorization (access_denied)", oauth_error=code))
        if code == "expired_token":
            self._end(ClientFailure(AUTHORIZATION_REQUIRED, "the device code expired before the user acted (expired_token)", oauth_error=code))
        if failure.category == TRANSIENT:
            self._transient_in_a_row += 1
            if self._transient_in_a_row > self.MAX_TRANSIENT:
                self._end(ClientFailure(TRANSIENT, f"the token endpoint kept failing while polling ({self._transient_in_a_row} times in a row): {failure.message}", oauth_error=code, status=failure.status))
            back_off = min(self._interval * (2 ** self._transient_in_a_row), max(self.LONGEST_BACK_OFF, self._interval))
            log.info("device poll failed (%s); polling again in %.0f s", failure.message, back_off)
            return self._schedule(now, back_off)
        self._end(failure)

    def _schedule(self, now: float, delay: float) -> float:
        self._next_poll_at = now + delay
        return self._seconds(min(self._next_poll_at, self._expires_at) - now)

    @staticmethod
    def _seconds(wait: float) -> float:
        """Rounded up to the millisecond (the resolution of the harness's clock), never less."""
        return math.ceil(round(wait * 1000, 6)) / 1000

    def _end(self, failure: ClientFailure):
        self._ended = failure
        self._device_code = None
        raise failure.copy()


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

    def __init__(self, config: ClientConfig, pusher: Optional[RequestPusher] = None):
        self._config = config
        self._pusher = pusher  # RFC 9126: parameters go by the back channel, the browser gets a reference
        self._lock = threading.Lock()
        self._pending: Optional[tuple] = None  # (state, code_verifier, nonce or None)

    def start(self, endpoint: Optional[str] = None, nonce: Optional[str] = None) -> str:
        """The authorization request's URL; with a nonce, an OpenID Connect authentication request
        (Core §3.1.2.1: scope openid and the nonce) at `endpoint`, the discovered one."""
        config = self._config
        endpoint = endpoint or config.authorization_endpoint
        if not endpoint or not config.redirect_uri:
            raise ClientFailure(UNSUPPORTED, "no authorization endpoint or redirect URI configured")
        state = secrets.token_urlsafe(32)
        verifier = secrets.token_urlsafe(64)  # 86 characters of the unreserved set
        challenge = _base64url(hashlib.sha256(verifier.encode("ascii")).digest())
        openid = [("scope", "openid"), ("nonce", nonce)] if nonce is not None else []
        parameters = [
            ("response_type", "code"), ("client_id", config.client_id), ("redirect_uri", config.redirect_uri),
            *openid, ("state", state), ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ]
        if self._pusher is not None:
            with self._lock:
                self._pending = None  # a new authorization supersedes any earlier one, even if its push fails
            # A new push for every authorization (a request_uri is single-use, §4); a failed push
            # raises here, before anything is pending and without any front-channel URL.
            request_uri = self._pusher.push(parameters)
            parameters = [("client_id", config.client_id), ("request_uri", request_uri)]
        with self._lock:
            self._pending = (state, verifier, nonce)
        query = urllib.parse.urlencode(parameters, quote_via=urllib.parse.quote)
        separator = "&" if urllib.parse.urlsplit(endpoint).query else "?"
        return f"{endpoint}{separator}{query}"

    def finish(self, redirect_url: str) -> tuple:
        """Checks the redirect; returns (code, code_verifier, nonce or None) or raises."""
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is None:
            raise ClientFailure(PROTOCOL, "an authorization response arrived, but no authorization request is pending")
        state, verifier, nonce = pending
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
        return code, verifier, nonce


# ---------------------------------------------------------------------------------------------
# OpenID Connect: discovery, the provider's keys, the ID token


class JsonFetcher:
    """GETs a JSON object (discovery document, JWKS): redirects never followed, the body bounded."""

    LARGEST_BODY = 1 << 20

    def __init__(self, config: ClientConfig, http: requests.Session):
        self._config = config
        self._http = http

    def get(self, url: str, what: str) -> dict:
        config = self._config
        try:
            response = self._http.get(
                url, headers={"Accept": "application/json"}, allow_redirects=False,
                verify=config.ca_file or True, timeout=(config.connect_timeout, config.read_timeout),
            )
        except requests.exceptions.RequestException as error:
            raise ErrorMapper.transport(error, f"fetching the {what}") from None
        if ErrorMapper.server_trouble(response.status_code):
            raise ClientFailure(TRANSIENT, f"the {what} is unavailable (HTTP {response.status_code})", status=response.status_code)
        if response.status_code != 200 or len(response.content) > self.LARGEST_BODY:
            raise ClientFailure(PROTOCOL, f"the {what} could not be had (HTTP {response.status_code})", status=response.status_code)
        try:
            value = json.loads(response.content.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            value = None
        if not isinstance(value, dict):
            raise ClientFailure(PROTOCOL, f"the {what} is not a JSON object")
        return value


@dataclasses.dataclass(frozen=True)
class ProviderMetadata:
    issuer: str
    authorization_endpoint: str
    jwks_uri: Optional[str]
    userinfo_endpoint: Optional[str]


class Discovery:
    """The provider's configuration (Discovery 1.0 §4), fetched once per process. A document
    naming another issuer than the configured one is never used (§4.3): one provider could
    otherwise speak for another. A refused document is not cached, so it is asked again."""

    SUFFIX = "/.well-known/openid-configuration"

    def __init__(self, config: ClientConfig, fetcher: JsonFetcher):
        self._config = config
        self._fetcher = fetcher
        self._lock = threading.Lock()
        self._metadata: Optional[ProviderMetadata] = None

    def metadata(self) -> ProviderMetadata:
        with self._lock:
            if self._metadata is None:
                self._metadata = self._discover()
            return self._metadata

    def _discover(self) -> ProviderMetadata:
        url = self._config.openid_configuration_url
        if not url:
            raise ClientFailure(UNSUPPORTED, "no OpenID Connect discovery document is configured")
        document = self._fetcher.get(url, "discovery document")
        expected = self._config.issuer or (url[: -len(self.SUFFIX)] if url.endswith(self.SUFFIX) else url)
        issuer = document.get("issuer")
        if issuer != expected:
            shown = repr(issuer[:100]) if isinstance(issuer, str) else "none"
            raise ClientFailure(PROTOCOL, f"the discovery document names issuer {shown}, not {expected!r}; it is not used (OIDC Discovery §4.3)")
        endpoint = document.get("authorization_endpoint")
        if not isinstance(endpoint, str) or not endpoint:
            raise ClientFailure(PROTOCOL, "the discovery document names no authorization_endpoint")
        text = lambda name: document.get(name) if isinstance(document.get(name), str) else None  # noqa: E731
        return ProviderMetadata(issuer, endpoint, text("jwks_uri"), text("userinfo_endpoint"))


class KeySet:
    """The provider's JWKS (RFC 7517), cached (OIDC Core §10.1.1). A token whose key the cache
    lacks makes it fetch the set again, at most once per token and never when this token's
    validation already fetched it: tokens naming unknown keys cost one fetch each, never a loop."""

    # The key type (and curve) each asymmetric algorithm the client may register needs (RFC 7518 §3).
    KEY_TYPES = {"RS256": ("RSA", None), "PS256": ("RSA", None), "ES256": ("EC", "P-256")}

    def __init__(self, fetcher: JsonFetcher, jwks_uri: str):
        self._fetcher = fetcher
        self._jwks_uri = jwks_uri
        self._lock = threading.Lock()
        self._keys: Optional[list] = None  # the JWKs last fetched

    def key_for(self, alg: str, kid: Optional[str]) -> jwt.PyJWK:
        with self._lock:
            fetched = self._keys is None
            if fetched:
                self._fetch()
            key = self._select(alg, kid)
            if key is None and not fetched:
                self._fetch()  # perhaps the provider rotated its keys (§10.1.1)
                key = self._select(alg, kid)
        if key is None:
            named = f"kid {kid[:60]!r}" if kid is not None else "no kid"
            raise ClientFailure(ID_TOKEN, f"the provider's JWKS has no single {alg} key for the ID token's header ({named})")
        return key

    def _fetch(self) -> None:
        keys = self._fetcher.get(self._jwks_uri, "JWKS").get("keys")
        if not isinstance(keys, list):
            raise ClientFailure(PROTOCOL, "the JWKS has no keys array (RFC 7517 §5)")
        self._keys = [key for key in keys if isinstance(key, dict)]

    def _select(self, alg: str, kid: Optional[str]) -> Optional[jwt.PyJWK]:
        kty, crv = self.KEY_TYPES[alg]
        candidates = []
        for jwk in self._keys:
            if kid is not None and jwk.get("kid") != kid:
                continue
            if jwk.get("kty") != kty or (crv and jwk.get("crv") != crv) or jwk.get("use", "sig") != "sig" or jwk.get("alg", alg) != alg:
                continue
            try:
                candidates.append(jwt.PyJWK(jwk, algorithm=alg))
            except jwt.PyJWTError:
                continue  # a malformed key is no candidate
        # Without kid the key must be unambiguous (§10.1): one key for the algorithm, or none.
        return candidates[0] if len(candidates) == 1 else None


class IdTokenValidator:
    """OIDC Core §3.1.3.7 (and §3.1.3.8 for at_hash). PyJWT verifies the JWS with the registered
    algorithm only, so alg none and HS256 keyed with a public key are refused; the claims are
    checked here against the client's clock, which the harness steers."""

    SKEW = 30.0  # seconds allowed between the provider's clock and this one, for exp and iat
    REQUIRED = ["iss", "sub", "aud", "exp", "iat"]  # Core §2

    def __init__(self, config: ClientConfig, issuer: str, keys: Callable[[], KeySet], clock: Callable[[], float]):
        self._config = config
        self._issuer = issuer
        self._keys = keys
        self._clock = clock

    def validate(self, token: str, access_token: str, nonce: Optional[str]) -> dict:
        """The token's claims once every check passed; `nonce` None: none was sent (a refresh)."""
        claims = self._verified_claims(token)
        self._check_issuer_and_audience(claims)
        self._check_times(claims)
        if not isinstance(claims["sub"], str) or not claims["sub"]:
            raise ClientFailure(ID_TOKEN, "the ID token's sub is not a non-empty string (Core §2)")
        if nonce is not None and not (isinstance(claims.get("nonce"), str) and hmac.compare_digest(claims["nonce"].encode(), nonce.encode())):
            raise ClientFailure(ID_TOKEN, "the ID token's nonce is not the one this sign-in sent (Core §3.1.3.7 step 11)")
        if "at_hash" in claims and claims["at_hash"] != self.access_token_hash(access_token):
            raise ClientFailure(ID_TOKEN, "the ID token's at_hash does not match the access token (Core §3.1.3.8)")
        return claims

    def _verified_claims(self, token: str) -> dict:
        alg = self._config.id_token_signing_alg
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as error:
            raise ClientFailure(ID_TOKEN, f"the ID token is not a JWS: {error}") from None
        if header.get("alg") != alg:
            # Step 7: the registered algorithm only (RFC 8725 §2.1, §3.1: no none, no confusion).
            raise ClientFailure(ID_TOKEN, f"the ID token is signed {str(header.get('alg'))[:20]!r}; this client registered {alg}")
        key = self._hmac_key() if alg == "HS256" else self._keys().key_for(alg, header.get("kid"))
        options = {"verify_aud": False, "verify_iss": False, "verify_exp": False, "verify_iat": False, "verify_nbf": False, "require": self.REQUIRED}
        try:
            return jwt.decode(token, key, algorithms=[alg], options=options)
        except jwt.PyJWTError as error:
            raise ClientFailure(ID_TOKEN, f"the ID token was refused: {type(error).__name__}: {error}") from None

    def _hmac_key(self) -> bytes:
        secret = self._config.client_secret.encode("utf-8")  # Core §10.1: the secret's UTF-8 octets
        if len(secret) < 32:
            raise ClientFailure(ID_TOKEN, "HS256 needs a client secret of at least 32 bytes (RFC 7518 §3.2)")
        return secret

    def _check_issuer_and_audience(self, claims: dict) -> None:
        if claims["iss"] != self._issuer:
            raise ClientFailure(ID_TOKEN, f"the ID token's iss {str(claims['iss'])[:100]!r} is not the discovered issuer (Core §3.1.3.7 step 2)")
        client_id = self._config.client_id
        audiences = claims["aud"] if isinstance(claims["aud"], list) else [claims["aud"]]
        if client_id not in audiences:
            raise ClientFailure(ID_TOKEN, "the ID token's aud does not contain this client's id (Core §3.1.3.7 step 3)")
        if any(audience != client_id for audience in audiences):
            raise ClientFailure(ID_TOKEN, "the ID token names audiences this client does not trust (Core §3.1.3.7 step 3)")
        if len(audiences) > 1 and "azp" not in claims:
            raise ClientFailure(ID_TOKEN, "the ID token has several audiences and no azp (Core §3.1.3.7 step 4)")
        if "azp" in claims and claims["azp"] != client_id:
            raise ClientFailure(ID_TOKEN, "the ID token's azp is not this client's id (Core §3.1.3.7 step 5)")

    def _check_times(self, claims: dict) -> None:
        now = self._clock()
        exp, iat = claims["exp"], claims["iat"]
        if not all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in (exp, iat)):
            raise ClientFailure(ID_TOKEN, "the ID token's exp or iat is not a number (Core §2)")
        if now >= exp + self.SKEW:
            raise ClientFailure(ID_TOKEN, f"the ID token expired {int(now - exp)} s ago (Core §3.1.3.7 step 9)")
        if iat > now + self.SKEW:
            raise ClientFailure(ID_TOKEN, f"the ID token's iat is {int(iat - now)} s in the future (Core §3.1.3.7 step 10)")

    @staticmethod
    def access_token_hash(access_token: str) -> str:
        # Core §3.1.3.8: base64url of the left half of the hash the alg names (SHA-256 for all four).
        return _base64url(hashlib.sha256(access_token.encode("ascii", "replace")).digest()[:16])


class OpenIDRelyingParty:
    """Decides what a token response means for the signed-in user: a sign-in's ID token is
    required and validated (Core §3.1.3.3, §3.1.3.7); a refresh's, when present, must name the
    same user (§12.2); a userinfo answer must be about that user (§5.3.2)."""

    def __init__(self, config: ClientConfig, http: requests.Session, clock: Callable[[], float]):
        self._config = config
        self._clock = clock
        self._fetcher = JsonFetcher(config, http)
        self.discovery = Discovery(config, self._fetcher)
        self._lock = threading.Lock()
        self._key_set: Optional[KeySet] = None

    def accept_sign_in(self, tokens: TokenSet, nonce: str) -> TokenSet:
        if tokens.id_token is None:
            raise ClientFailure(ID_TOKEN, "the sign-in's token response carries no id_token (Core §3.1.3.3)")
        claims = self._validator().validate(tokens.id_token, tokens.access_token, nonce)
        identity = {"iss": claims["iss"], "sub": claims["sub"], "aud": claims["aud"]}
        return dataclasses.replace(
            tokens, identity=identity, id_token=None, accepted_id_token=tokens.id_token, accepted_id_token_exp=float(claims["exp"]),
        )

    def accept_refresh(self, held: TokenSet, renewed: TokenSet) -> TokenSet:
        """The refreshed tokens keeping the user of `held`, or a refusal of the whole response."""
        if held.identity is None or renewed.id_token is None:
            # Nobody signed in, or no ID token: §12.2 allows a refresh without one; the user stays,
            # and so does the ID token accepted last.
            return dataclasses.replace(
                renewed, identity=held.identity, id_token=None,
                accepted_id_token=held.accepted_id_token, accepted_id_token_exp=held.accepted_id_token_exp,
            )
        claims = self._validator().validate(renewed.id_token, renewed.access_token, nonce=None)
        for name in ("iss", "sub", "aud"):
            if claims[name] != held.identity.get(name):
                raise ClientFailure(ID_TOKEN, f"the refreshed ID token's {name} is not the signed-in user's (Core §12.2); the refresh is refused")
        return dataclasses.replace(
            renewed, identity=held.identity, id_token=None, accepted_id_token=renewed.id_token, accepted_id_token_exp=float(claims["exp"]),
        )

    def userinfo_endpoint(self) -> str:
        endpoint = self.discovery.metadata().userinfo_endpoint
        if not endpoint:
            raise ClientFailure(UNSUPPORTED, "the provider's discovery document names no userinfo_endpoint")
        return endpoint

    @staticmethod
    def userinfo_claims(identity: dict, response: requests.Response) -> dict:
        status = response.status_code
        if status != 200:
            category = TRANSIENT if ErrorMapper.server_trouble(status) else AUTHORIZATION_REQUIRED if status == 401 else USERINFO
            raise ClientFailure(category, f"the userinfo endpoint answered HTTP {status}", status=status)
        try:
            claims = response.json()
        except ValueError:
            claims = None
        if not isinstance(claims, dict):
            raise ClientFailure(USERINFO, "the userinfo response is not a JSON object (Core §5.3.2)")
        if claims.get("sub") != identity["sub"]:
            raise ClientFailure(USERINFO, "the userinfo response is about another user than the ID token's sub; not used (Core §5.3.2)")
        return claims

    def _validator(self) -> IdTokenValidator:
        return IdTokenValidator(self._config, self.discovery.metadata().issuer, self._keys, self._clock)

    def _keys(self) -> KeySet:
        with self._lock:
            if self._key_set is None:
                jwks_uri = self.discovery.metadata().jwks_uri
                if not jwks_uri:
                    raise ClientFailure(ID_TOKEN, "the discovery document names no jwks_uri: the ID token cannot be verified")
                self._key_set = KeySet(self._fetcher, jwks_uri)
            return self._key_set


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


def challenge_error(response: requests.Response, scheme: str) -> Optional[str]:
    """The error of a 401's challenge of `scheme` (RFC 6750 §3, RFC 9449 §7.1), or None."""
    if response.status_code != 401:
        return None
    challenge = response.headers.get("WWW-Authenticate", "")
    if not re.match(rf"\s*{re.escape(scheme)}\b", challenge, re.IGNORECASE):
        return None
    found = re.search(r'\berror\s*=\s*"?([A-Za-z0-9_]+)"?', challenge, re.IGNORECASE)
    return found.group(1).lower() if found else None


def is_invalid_token_challenge(response: requests.Response, scheme: str = "Bearer") -> bool:
    """RFC 6750 §3.1: a 401 whose challenge, of the scheme the token went with, says error="invalid_token"."""
    return challenge_error(response, scheme) == "invalid_token"


# ---------------------------------------------------------------------------------------------
# Leg 2 of a third-party sign-in: the app's own server


def same_origin(url: str, other: str) -> bool:
    """RFC 6454 origins: scheme, host and port (the default port filled in) all equal."""
    a, b = urllib.parse.urlsplit(url), urllib.parse.urlsplit(other)
    defaults = {"http": 80, "https": 443}
    try:
        ports = (a.port or defaults.get(a.scheme.lower()), b.port or defaults.get(b.scheme.lower()))
    except ValueError:
        return False
    return a.scheme.lower() == b.scheme.lower() and (a.hostname or "") == (b.hostname or "") and ports[0] == ports[1]


class AppServerSession:
    """The app's own session at the app's own server, begun by presenting the signed-in user's ID
    token as an RFC 7523 §2.1 JWT bearer assertion (not an RFC 8693 token exchange), and renewed
    there with the app's refresh token (RFC 6749 §6). When the app server refuses that refresh
    (invalid_grant), the session begins again with an ID token that has not expired, which
    `fresh_id_token` supplies (refreshing at the provider, OIDC Core §12.2, when it must).

    The app's tokens go to the app server's origin alone, and nothing of the provider's but the ID
    token ever does: no client secret, no provider access or refresh token. They are kept in a
    token file of their own, apart from the provider's. Renewals are serialized by one lock; a
    caller that finds the token it would replace already replaced uses the replacement."""

    GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    FILE_NAME = "independent-client-app-tokens.json"

    def __init__(self, config: ClientConfig, http: requests.Session, clock: Callable[[], float],
                 policy: "RefreshPolicy", fresh_id_token: Callable[[], str]):
        self.token_endpoint_url = config.app_server_token_endpoint
        self._endpoint = TokenEndpoint(config, http, clock, url=config.app_server_token_endpoint)
        self._store = TokenStore(config.storage_dir, self.FILE_NAME)
        self._clock = clock
        self._policy = policy
        self._fresh_id_token = fresh_id_token
        self._renewal = threading.Lock()

    def serves(self, url: str) -> bool:
        return same_origin(url, self.token_endpoint_url)

    def begin(self, id_token: str) -> None:
        """Trades the ID token for the app's tokens (replacing any held)."""
        try:
            tokens = self._endpoint.obtain([("grant_type", self.GRANT), ("assertion", id_token)], self.GRANT)
        except ClientFailure as failure:
            raise self._as_leg_two(failure, "refused the ID token") from None
        self._store.replace(tokens)

    def end(self) -> None:
        self._store.discard()

    def access_token(self) -> str:
        """The app's access token to send now: renewed first when the refresh policy says so."""
        held = self._store.current()
        if held is None:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "no session at the app server: exchange the sign-in there first")
        if self._policy.due(held, self._clock()):
            return self.renew(replacing=held.access_token)
        return held.access_token

    def renew(self, replacing: str) -> str:
        """The app's refresh token first; on invalid_grant, a new assertion with a fresh ID token."""
        with self._renewal:
            held = self._store.current()
            if held is not None and held.access_token != replacing:
                return held.access_token  # another caller renewed it meanwhile
            if held is not None and held.refresh_token is not None:
                form = [("grant_type", "refresh_token"), ("refresh_token", held.refresh_token)]
                try:
                    renewed = self._endpoint.obtain(form, self.GRANT, previous=held)
                    self._store.replace(renewed)
                    return renewed.access_token
                except ClientFailure as failure:
                    if failure.oauth_error != "invalid_grant":
                        raise self._as_leg_two(failure, "refused to renew the app's tokens") from None
                    log.info("the app server refused the app's refresh token (invalid_grant); exchanging the sign-in again")
            self._store.discard()  # the app's grant is dead; only a new assertion helps
            self.begin(self._fresh_id_token())
            return self._store.current().access_token

    @staticmethod
    def _as_leg_two(failure: ClientFailure, what: str) -> ClientFailure:
        """The app server's answer in leg 2's terms: an outage stays transient; a refusal is the
        app server's, never leg 1's (the user stays signed in with the provider)."""
        if failure.category in (TRANSIENT, TLS):
            return ClientFailure(failure.category, f"the app server (leg 2) could not answer: {failure.message}")
        if failure.oauth_error is not None or failure.category in (AUTHORIZATION_REQUIRED, INVALID_CLIENT, OAUTH_ERROR):
            return ClientFailure(EXCHANGE_REFUSED, f"the app server {what} (leg 2): {failure.message}", oauth_error=failure.oauth_error)
        return ClientFailure(failure.category, f"the app server (leg 2): {failure.message}")


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
        authentication = client_authentication(self._config, self._clock)
        # The nonces of this run; bound tokens held from an earlier run are proved with it too.
        self._dpop = DPoP(self._clock)
        self._token_endpoint = TokenEndpoint(self._config, self._http, self._clock, authentication=authentication,
                                             dpop=self._dpop if DPoP.offered(self._config) else None)
        self._refresher = SingleFlightRefresher(self._store, self._renew)
        pusher = None
        if self._config.pushed_authorization_request_endpoint:
            pusher = RequestPusher(self._config, self._http, authentication)
        self._authorization = AuthorizationFlow(self._config, pusher)
        self._client_authentication = authentication
        self._device: Optional[DeviceAuthorization] = None
        self._relying_party = OpenIDRelyingParty(self._config, self._http, self._clock)
        self._app_server = None
        if self._config.app_server_token_endpoint:
            self._app_server = AppServerSession(self._config, self._http, self._clock, self._policy, self._fresh_id_token)

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
        code, verifier, _ = self._authorization.finish(redirect_url)
        form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", self._config.redirect_uri), ("code_verifier", verifier)]
        self._store.replace(self._token_endpoint.obtain(form, "authorization_code"))

    def start_device_authorization(self) -> DevicePrompt:
        """RFC 8628 §3.1: a new device authorization (replacing any under way); what to show the user."""
        self._device = None
        device = DeviceAuthorization(self._config, self._http, self._client_authentication, self._token_endpoint, self._clock)
        prompt = device.start()
        self._device = device
        return prompt

    def poll_device_authorization(self) -> Optional[float]:
        """One step of the polling: seconds to wait before the next, or None once the tokens came
        (stored like any grant's); raises what ended the flow otherwise."""
        if self._device is None:
            raise ClientFailure(PROTOCOL, "no device authorization is under way: start one first")
        result = self._device.step()
        if isinstance(result, TokenSet):
            self._device = None
            self._store.replace(result)
            if self._app_server is not None:
                self._app_server.end()
            return None
        return result

    def sign_in_url(self) -> str:
        """An OpenID Connect authentication request (Core §3.1.2.1) at the discovered endpoint,
        with a fresh 256-bit nonce; discovery refuses a document for another issuer first."""
        metadata = self._relying_party.discovery.metadata()
        return self._authorization.start(endpoint=metadata.authorization_endpoint, nonce=secrets.token_urlsafe(32))

    def complete_sign_in(self, redirect_url: str) -> None:
        code, verifier, nonce = self._authorization.finish(redirect_url)
        if nonce is None:
            raise ClientFailure(PROTOCOL, "this authorization response answers a plain OAuth request, not a sign-in")
        form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", self._config.redirect_uri), ("code_verifier", verifier)]
        tokens = self._token_endpoint.obtain(form, "authorization_code")
        # Stored only once its ID token passed: a refused one leaves none of its tokens behind.
        self._store.replace(self._relying_party.accept_sign_in(tokens, nonce))
        if self._app_server is not None:
            self._app_server.end()  # a new sign-in: the app's session, if any, was another's

    def exchange(self) -> None:
        """Leg 2 of a third-party sign-in: the signed-in user's ID token, as a JWT bearer assertion
        (RFC 7523 §2.1), for the app's own tokens at the app's own server."""
        if self._app_server is None:
            raise ClientFailure(UNSUPPORTED, "no app server is configured: there is nowhere to exchange the sign-in")
        self._app_server.begin(self._fresh_id_token())

    def userinfo(self) -> dict:
        held = self._store.current()
        if held is None or held.identity is None:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "nobody is signed in: sign in first")
        response = self.request("GET", self._relying_party.userinfo_endpoint(), {"Accept": "application/json"})
        return self._relying_party.userinfo_claims(held.identity, response)

    def identity(self) -> Optional[dict]:
        held = self._store.current()
        if held is None or held.identity is None:
            return None
        return {"iss": held.identity["iss"], "sub": held.identity["sub"]}

    def request(self, method: str, url: str, headers: Optional[dict] = None, body=None) -> requests.Response:
        if self._app_server is not None and self._app_server.serves(url):
            return self._app_request(method, url, headers, body)
        held = self._token_to_send()
        response = self._send(method, url, headers, body, held.access_token, held.bound_key)
        if not is_invalid_token_challenge(response, held.scheme):
            return response
        # One refresh (or none, if the token was already replaced) and one replay per call.
        replacement = self._refresher.refresh(replacing=held.access_token, after_rejection=True)
        if replacement is None:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "the resource rejected the access token and no tokens are held: sign in again")
        response.close()
        return self._send(method, url, headers, body, replacement.access_token, replacement.bound_key)

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

    def _app_request(self, method: str, url: str, headers: Optional[dict], body) -> requests.Response:
        """A call to the app server's origin: the app's tokens only, one renewal and one replay."""
        token = self._app_server.access_token()
        response = self._send(method, url, headers, body, token)
        if not is_invalid_token_challenge(response):
            return response
        replacement = self._app_server.renew(replacing=token)
        response.close()
        return self._send(method, url, headers, body, replacement)

    # An ID token with less than this left is not traded: it could expire on its way.
    ID_TOKEN_MARGIN = 5.0

    def _fresh_id_token(self) -> str:
        """The signed-in user's ID token, still valid for a while; when it is not, the provider's
        refresh (through the relying-party path that validates the refreshed ID token, Core
        §12.2) brings a new one. An expired ID token is never handed out."""
        held = self._store.current()
        if held is None or held.identity is None or held.accepted_id_token is None:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "nobody is signed in with the provider (leg 1): nothing to exchange")
        if self._id_token_usable(held):
            return held.accepted_id_token
        if not self._renewable(held):
            raise ClientFailure(AUTHORIZATION_REQUIRED, "the sign-in's ID token has expired and cannot be renewed: sign in again")
        renewed = self._refresher.refresh(replacing=held.access_token)
        if renewed is None or renewed.identity is None or renewed.accepted_id_token is None:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "nobody is signed in with the provider any more: sign in again")
        if not self._id_token_usable(renewed):
            raise ClientFailure(AUTHORIZATION_REQUIRED, "the provider's refresh brought no new ID token and the old one has expired: sign in again")
        return renewed.accepted_id_token

    def _id_token_usable(self, tokens: TokenSet) -> bool:
        exp = tokens.accepted_id_token_exp
        return exp is not None and self._clock() + self.ID_TOKEN_MARGIN < exp

    def _token_to_send(self) -> TokenSet:
        flight = self._refresher.wait_for_flight()  # callers wait for a refresh under way
        held = self._store.current()
        if flight is not None and flight.failure is not None:
            # The refresh this call waited for failed: the call shares its outcome, or, when that
            # was an early refresh meeting an outage, goes out with the still-valid token.
            if not self._may_keep(held, flight.failure, flight.after_rejection):
                raise flight.failure.copy()
            return held
        if held is None:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "no tokens: sign in first")
        now = self._clock()
        if not self._policy.due(held, now):
            return held
        if not self._renewable(held):
            if held.expired(now):
                raise ClientFailure(AUTHORIZATION_REQUIRED, "the access token expired and there is no refresh token: sign in again")
            return held
        try:
            renewed = self._refresher.refresh(replacing=held.access_token)
        except ClientFailure as failure:
            if self._may_keep(self._store.current(), failure, after_rejection=False):
                log.info("proactive refresh failed (%s); the access token is still valid and stays in use", failure.message)
                return self._store.current()
            raise
        if renewed is None:
            raise ClientFailure(AUTHORIZATION_REQUIRED, "no tokens: sign in again")
        return renewed

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
        # Core §12.2: a refreshed ID token naming another user refuses the whole response.
        renewed = self._relying_party.accept_refresh(held, renewed)
        self._store.replace(renewed)
        return renewed

    def _send(self, method: str, url: str, headers: Optional[dict], body, access_token: str,
              proof_key: Optional[ProofKey] = None) -> requests.Response:
        """One call with the access token: as a bearer token (RFC 6750 §2.1), or, bound to
        `proof_key`, with the DPoP scheme and a proof of this very request (RFC 9449 §7.1), sent
        once more with the resource's new nonce when it demands one (§9)."""
        outgoing = {name: value for name, value in (headers or {}).items() if name.lower() not in ("authorization", "dpop")}
        outgoing["Authorization"] = f"{'DPoP' if proof_key is not None else 'Bearer'} {access_token}"
        data = body.encode("utf-8") if isinstance(body, str) else body

        def transmit(proof: Optional[str] = None) -> requests.Response:
            try:
                return self._http.request(
                    method, url, headers={**outgoing, "DPoP": proof} if proof else outgoing, data=data, allow_redirects=False,
                    verify=self._config.ca_file or True, timeout=(self._config.connect_timeout, self._config.read_timeout),
                )
            except requests.exceptions.RequestException as error:
                raise ErrorMapper.transport(error, f"{method} request") from None

        if proof_key is None:
            return transmit()
        return self._dpop.send(proof_key, method, url, DPoP.resource_server(url), transmit, resource_demands_nonce, access_token=access_token)
