"""What does the library's device-flow polling do when a poll is answered with a server error?
Case: requests-oauth2client: OAuth2Client(device_authorization_endpoint=...), authorize_device(),
then the README's loop over a DeviceAuthorizationPollingJob ("while token is None: token =
pooler()"), bounded here to six calls. The device authorization answers interval 1 (the job
sleeps it before every poll, by time.sleep); the first poll is answered authorization_pending,
the second and third 503 "busy", the fourth a token (RFC 8628 §3.5: a client that meets an
error it can recover from keeps polling, slower)."""

from applications import CLIENT_ID, CLIENT_SECRET
from throwaway_server import Answer, Server, case_argument, error_answer, json_answer, outcome, step, token_answer, verdict, watchdog

case_argument([("requests-oauth2client",)], "device_poll_errors.py requests-oauth2client")
watchdog()


def device_authorization(request):
    return json_answer({"device_code": "dc-1", "user_code": "WDJB-MJHT", "verification_uri": server.to("/device"),
                        "expires_in": 600, "interval": 1})


def token(request):
    number = server.count("/token", grant_type="urn:ietf:params:oauth:grant-type:device_code")
    if number == 1:
        return error_answer("authorization_pending", 400)
    if number in (2, 3):
        return Answer(503, b"busy", {"Content-Type": "text/plain"})
    return token_answer("at-1", 3600, "rt-1")


server = Server({"/device_authorization": device_authorization, "/token": token}, name="provider")

from requests_oauth2client import DeviceAuthorizationPollingJob, OAuth2Client  # noqa: E402

client = OAuth2Client(token_endpoint=server.to("/token"), device_authorization_endpoint=server.to("/device_authorization"),
                      client_id=CLIENT_ID, client_secret=CLIENT_SECRET, testing=True)
step("authorize_device()")
response, _ = outcome(client.authorize_device)
pooler = DeviceAuthorizationPollingJob(client, response)
token_held, raised = None, None
for call in range(1, 7):
    step(f"poll {call}: pooler() (sleeps {pooler.interval} s, then polls)")
    token_held, raised = outcome(pooler)
    if token_held is not None or raised is not None:
        break
polls = server.count("/token")
verdict(raised is not None and polls == 2 and token_held is None,
        "a failed poll ends the flow: the job catches only SlowDown and AuthorizationPending, so the 503's error "
        f"({type(raised).__name__}) leaves DeviceAuthorizationPollingJob at the first 5xx, with no back-off and no later poll",
        f"{polls} polls; {'raised ' + repr(raised) if raised else ('a token' if token_held else 'no token')}")
