"""The independent client (independent_client.py) behind the adapter protocol.

Two configurations of the same client, chosen with --mode (the profiles pass it):
  reactive   no proactive refresh: it renews only after a 401 invalid_token, or when asked;
  proactive  renews inside a 300-second window (half the lifetime for short tokens), and on a 401.
The client reads time.time(), so the profiles run it under libfaketime. The adapter only relays:
the category, code, status and message of an error are the ones the client raised, and the tokens are
persisted by the client itself (its TokenStore, in storage_dir), never by the adapter; so is the
signed-in user, whom `identity` reports from the client.
"""

import argparse
import os

from independent_client import ClientConfig, ClientFailure, IndependentClient, __version__
from oauth_adapter import Adapter, ClientError, client_assertion_jwk, serve, type_name

PROACTIVE_WINDOW = 300.0  # seconds; the proactive profile declares refresh_window: 300s

BASE_CAPABILITIES = [
    "refresh_on_401", "authorization_code", "restart", "custom_ca", "concurrency", "openid", "id_token_exchange",
    "private_key_jwt", "client_secret_jwt", "pushed_authorization_requests", "device_grant", "dpop",
]


class IndependentAdapter(Adapter):
    version = __version__

    def __init__(self, mode):
        self.mode = mode
        self.name = f"independent-python-client ({mode})"
        proactive = ["proactive_refresh"] if mode == "proactive" else []
        self.capabilities = proactive + BASE_CAPABILITIES
        self.client = None

    def reset(self, environment):
        if self.client is not None:
            self.client.close()
        self.client = IndependentClient(ClientConfig(
            token_endpoint=environment["token_endpoint"],
            client_id=environment["client_id"],
            client_secret=environment["client_secret"],
            storage_dir=environment.get("storage_dir"),
            authorization_endpoint=environment.get("authorization_endpoint"),
            redirect_uri=environment.get("redirect_uri"),
            issuer=environment.get("issuer"),
            username=environment.get("username"),
            password=environment.get("password"),
            ca_file=environment.get("ca_file"),
            refresh_window=PROACTIVE_WINDOW if self.mode == "proactive" else None,
            openid_configuration_url=environment.get("openid_configuration_url"),
            id_token_signing_alg=environment.get("id_token_signing_alg") or "RS256",
            app_server_token_endpoint=environment.get("app_server_token_endpoint"),
            client_assertion_key=client_assertion_jwk(environment),
            client_secret_jwt=environment.get("token_endpoint_auth_method") == "client_secret_jwt",
            pushed_authorization_request_endpoint=environment.get("pushed_authorization_request_endpoint"),
            device_authorization_endpoint=environment.get("device_authorization_endpoint"),
            dpop_signing_algs=tuple(environment.get("dpop_signing_alg_values_supported") or ()) or None,
        ))

    def login(self, grant):
        self.client.login(grant)

    def authorization_url(self):
        return self.client.authorization_url()

    def complete_authorization(self, redirect_url):
        self.client.complete_authorization(redirect_url)

    def sign_in_url(self):
        return self.client.sign_in_url()

    def complete_sign_in(self, redirect_url):
        self.client.complete_sign_in(redirect_url)

    def userinfo(self):
        return self.client.userinfo()

    def exchange(self):
        """Leg 2 of a third-party sign-in (capability id_token_exchange)."""
        self.client.exchange()

    def device_authorization(self):
        """RFC 8628 §3.1 (capability device_grant): what the application shows the user."""
        prompt = self.client.start_device_authorization()
        return {"user_code": prompt.user_code, "verification_uri": prompt.verification_uri,
                "verification_uri_complete": prompt.verification_uri_complete}

    def device_poll(self):
        """One step of the client's polling: ("wait", seconds) as the client asks, or the outcome."""
        wait = self.client.poll_device_authorization()
        return ("wait", wait) if wait is not None else None

    def identity(self):
        return self.client.identity() if self.client is not None else None

    def request(self, method, url, headers, body):
        return self.client.request(method, url, headers, body)

    def restart(self):
        self.client.restart()

    def tokens(self):
        return self.client.tokens() if self.client is not None else None

    def end(self):
        if self.client is not None:
            self.client.close()

    def classify(self, exception):
        if isinstance(exception, ClientFailure):
            # What the client surfaced: the provider's code and the status it carried (the harness
            # derives the category from them), and its own category for what they do not tell.
            return ClientError(exception.category, exception.message, oauth_error=exception.oauth_error,
                               type_name=type_name(exception), status=exception.status)
        # Every refusal the client means is a ClientFailure; anything else escaped from inside it.
        # Python programming errors or not (an OSError from the standard library, say), it is a
        # crash, never a refusal.
        return ClientError("unexpected", str(exception) or repr(exception), type_name=type_name(exception))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["reactive", "proactive"], default=os.environ.get("INDEPENDENT_CLIENT_MODE", "reactive"))
    serve(IndependentAdapter(parser.parse_args().mode))


if __name__ == "__main__":
    main()
