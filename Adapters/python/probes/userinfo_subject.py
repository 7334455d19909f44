"""Does the library compare the sub of a userinfo response with the ID token's (OpenID Connect
Core §5.3.2)? Case: <library>: the sign-in's ID token is for alice; the userinfo endpoint answers
for mallory."""

from openid_provider import OpenIDProvider
from relying_parties import relying_party
from throwaway_server import case_argument, outcome, step, verdict, watchdog

(library,) = case_argument([("authlib",), ("requests-oauth2client",)], "userinfo_subject.py <library>")
watchdog()
provider = OpenIDProvider(userinfo_sub="mallory")
rp = relying_party(library, provider)
step(f"{library}: sign in (the ID token's sub is alice)")
_, raised = outcome(rp.sign_in)
if raised is not None:
    verdict(False, "", f"the sign-in itself failed: {raised!r}")
step("userinfo (the endpoint answers sub mallory)")
claims, raised = outcome(rp.userinfo)
verdict(raised is None and claims and claims.get("sub") == "mallory",
        f"{library}'s userinfo returns the endpoint's claims without comparing their sub with the ID token's: "
        "another user's claims (sub mallory) reach the application",
        f"{library}'s userinfo {'raised ' + repr(raised) if raised else 'returned ' + repr(claims)}")
