"""Does the library fetch the provider's JWKS again when an ID token names a key it does not
have (a rotated signing key)? Case: <library>: two sign-ins with one client; between them the
provider publishes a new key (rsa-2, beside rsa-1) and signs with it. The probe counts the JWKS
requests and reports what the second sign-in did."""

from openid_provider import OpenIDProvider
from relying_parties import relying_party
from throwaway_server import case_argument, outcome, step, verdict, watchdog

(library,) = case_argument([("requests-oauth2client",), ("authlib",)], "jwks_rotation.py <library>")
watchdog()
provider = OpenIDProvider()
rp = relying_party(library, provider)
step(f"{library}: sign in 1 (ID token signed with rsa-1)")
_, first = outcome(rp.sign_in)
provider.add_key("rsa-2")
step("the provider rotates: rsa-2 published beside rsa-1, and signs with it; sign in 2")
_, second = outcome(rp.sign_in)
fetches = provider.server.count("/jwks")
verdict(first is None and second is not None and fetches == 1,
        f"{library} fetches the JWKS once and never again: the rotated key's ID token is refused "
        f"({type(second).__name__}: {second}), with {fetches} JWKS request in all",
        f"{library}: sign-in 1 {'raised ' + repr(first) if first else 'succeeded'}, sign-in 2 "
        f"{'raised ' + repr(second) if second else 'succeeded'}, {fetches} JWKS request(s)")
