"""A throwaway OpenID provider for the probes: discovery, JWKS, an authorization endpoint the probe's
"browser" visits (authorize()), a token endpoint that issues ID tokens, userinfo and a resource,
all on one throwaway_server.Server. What it gets wrong on purpose is given by the probe: the ID
token's claims and header per grant (id_token), the issuer the discovery document names, the
signing key, and the sub userinfo answers.

ID tokens are signed with joserfc (authlib's JOSE library, in the venv), by keys made per run."""

import time
from urllib.parse import parse_qs, urlencode, urlsplit

from joserfc import jwt
from joserfc.jwk import ECKey, KeySet, OctKey, RSAKey

from applications import CLIENT_ID, CLIENT_SECRET
from throwaway_server import Answer, Server, json_answer

USER = "alice"


class OpenIDProvider:
    def __init__(self, id_token=None, discovery_issuer=None, userinfo_sub=USER, access_lifetime=3600, algs=("RS256",)):
        """id_token(grant, claims, header) may change the claims and header of each ID token in place,
        and return False to leave the ID token out of the response."""
        self.tweak = id_token or (lambda grant, claims, header: None)
        self.userinfo_sub = userinfo_sub
        self.access_lifetime = access_lifetime
        self.keys = {"rsa-1": RSAKey.generate_key(2048, parameters={"kid": "rsa-1", "use": "sig"}),
                     "ec-1": ECKey.generate_key("P-256", parameters={"kid": "ec-1", "use": "sig"})}
        self.published = ["rsa-1", "ec-1"] if "ES256" in algs else ["rsa-1"]
        self.signing_kid = "rsa-1"
        self.algs = algs
        self.nonces = {}
        self.valid = set()
        self.server = Server({
            "/.well-known/openid-configuration": self._discovery,
            "/jwks": lambda request: json_answer(self.jwks()),
            "/token": self._token,
            "/userinfo": self._userinfo,
            "/resource": self._resource,
        }, name="provider")
        self.url = self.server.url
        self.discovery_issuer = discovery_issuer or self.url
        self.discovery_url = self.server.to("/.well-known/openid-configuration")

    def add_key(self, kid):
        """A new RSA signing key, published beside the others, that signs the ID tokens from now on."""
        self.keys[kid] = RSAKey.generate_key(2048, parameters={"kid": kid, "use": "sig"})
        self.published.append(kid)
        self.signing_kid = kid

    def jwks(self):
        return KeySet([self.keys[kid] for kid in self.published]).as_dict(private=False)

    def _discovery(self, request):
        return json_answer({
            "issuer": self.discovery_issuer,
            "authorization_endpoint": self.server.to("/authorize"),
            "token_endpoint": self.server.to("/token"),
            "userinfo_endpoint": self.server.to("/userinfo"),
            "jwks_uri": self.server.to("/jwks"),
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": list(self.algs),
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "code_challenge_methods_supported": ["S256"],
        })

    def authorize(self, url):
        """The browser's visit: the user consents, and the provider sends it back with a code."""
        query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
        code = f"code-{len(self.nonces) + 1}"
        self.nonces[code] = query.get("nonce")
        print(f"  browser: GET /authorize scope={query.get('scope')!r} nonce={query.get('nonce')!r} "
              f"state={query.get('state', '')[:12]!r}...; back with {code}", flush=True)
        return f"{query['redirect_uri']}?{urlencode({'code': code, 'state': query.get('state', ''), 'iss': self.url})}"

    def id_token(self, grant, nonce, alg="RS256"):
        now = int(time.time())
        claims = {"iss": self.url, "sub": USER, "aud": CLIENT_ID, "exp": now + 3600, "iat": now}
        if nonce:
            claims["nonce"] = nonce
        header = {"alg": alg, "kid": self.signing_kid}
        if self.tweak(grant, claims, header) is False:
            return None
        alg = header["alg"]
        if alg.startswith("HS"):
            key = OctKey.import_key(CLIENT_SECRET)
            header.pop("kid", None)
        elif alg.startswith("ES"):
            key = self.keys["ec-1"]
            if "kid" in header:
                header["kid"] = "ec-1"
        else:
            key = self.keys[self.signing_kid]
        print(f"  provider issues an ID token: header {header}, claims {claims}", flush=True)
        return jwt.encode(header, claims, key, algorithms=[alg])

    def _token(self, request):
        grant = request.field("grant_type")
        number = len(self.valid) + 1
        access_token = f"at-{number}"
        self.valid.add(access_token)
        document = {"access_token": access_token, "token_type": "Bearer", "expires_in": self.access_lifetime,
                    "refresh_token": "rt-1"}
        id_token = self.id_token(grant, self.nonces.get(request.field("code")))
        if id_token is not None:
            document["id_token"] = id_token
        return json_answer(document)

    def _bearer(self, request):
        scheme, _, token = (request.headers.get("Authorization") or "").partition(" ")
        return scheme.lower() == "bearer" and token in self.valid

    def _userinfo(self, request):
        if not self._bearer(request):
            return Answer(401, b"", {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        return json_answer({"sub": self.userinfo_sub, "name": self.userinfo_sub.title()})

    def _resource(self, request):
        if not self._bearer(request):
            return Answer(401, b"", {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        return json_answer({"ok": True})
