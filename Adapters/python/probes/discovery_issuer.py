"""Does the library compare the discovery document's issuer with the issuer it was fetched for
(OpenID Connect Discovery §4.3)? Case: <library>: the provider's
/.well-known/openid-configuration names issuer https://attacker.example; everything else in it
is the provider's own. The application signs in as its documentation shows (server_metadata_url
for authlib); the probe reports which requests went out before the library stopped, if it did."""

from openid_provider import OpenIDProvider
from relying_parties import relying_party
from throwaway_server import case_argument, outcome, step, verdict, watchdog

(library,) = case_argument([("authlib",)], "discovery_issuer.py authlib")
watchdog()
provider = OpenIDProvider(discovery_issuer="https://attacker.example")
rp = relying_party(library, provider)
step(f"{library}: sign in; the discovery document says issuer https://attacker.example")
_, raised = outcome(rp.sign_in)
redeemed = provider.server.count("/token", grant_type="authorization_code")
verdict(redeemed == 1 and raised is not None and "iss" in str(raised),
        f"{library} never compares the discovery document's issuer with the URL it was fetched for: the authorization "
        f"request went out and the code was redeemed at the endpoints it names; the sign-in failed only after, on the ID "
        f"token's real iss ({type(raised).__name__}: {raised})",
        f"{library}: {redeemed} code redemption(s); the sign-in {'raised ' + repr(raised) if raised else 'succeeded'}")
