"""What does the library do with a token of a type it does not implement? Case: <library> mac:
the sign-in's token response says "token_type": "mac" (no mac_key, no mac_algorithm). RFC 6749
§7.1: a client must not use a token whose type it does not understand; a conforming library
refuses it, at once or when the application calls the resource, and sends it nowhere."""

from applications import LIBRARIES, application
from throwaway_server import Server, bearer_resource, case_argument, outcome, step, token_answer, verdict, watchdog

library, token_type = case_argument([(library, "mac") for library in LIBRARIES], "unsupported_token_type.py <library> mac")
watchdog()
server = Server({"/token": lambda request: token_answer("at-1", 3600, "rt-1", token_type=token_type),
                 "/resource": bearer_resource({"at-1"})}, name="provider")
app = application(library, server)
step(f"{library}: sign in (password grant); the token response says token_type {token_type!r}")
_, sign_in_error = outcome(app.sign_in)
step("call: GET /resource")
_, raised = outcome(app.call)
sent = server.count("/resource")
verdict(sign_in_error is None and isinstance(raised, AttributeError) and sent == 0,
        f"{library} crashes on token_type {token_type} ({type(raised).__name__}: {raised}) instead of refusing the token: "
        "an unexpected error, not a refusal",
        f"{library}: sign-in {'raised ' + repr(sign_in_error) if sign_in_error else 'succeeded'}, the call "
        f"{'raised ' + repr(raised) if raised else 'succeeded'}, {sent} resource request(s)")
