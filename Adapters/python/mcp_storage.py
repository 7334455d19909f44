"""The application's TokenStorage for the MCP Python SDK (mcp.client.auth.TokenStorage, a Protocol of
four async methods): what the SDK hands the application to keep (its OAuthToken and its client
information) as JSON files in the scenario's storage_dir, which outlives a restart. As the SDK's
documentation says (docs/client/oauth-clients.md, "Token storage"): persist the client information
as well as the tokens. The SDK gives the storage one slot of each per provider, with no key and no
delete; one storage per MCP server, as here."""

import json
import os

from mcp.shared.auth import OAuthClientInformationFull, OAuthToken


class FileTokenStorage:
    def __init__(self, directory):
        self.tokens_file = os.path.join(directory, "mcp-tokens.json")
        self.client_file = os.path.join(directory, "mcp-client.json")

    async def get_tokens(self):
        return _load(self.tokens_file, OAuthToken)

    async def set_tokens(self, tokens):
        _save(self.tokens_file, tokens)

    async def get_client_info(self):
        return _load(self.client_file, OAuthClientInformationFull)

    async def set_client_info(self, client_info):
        _save(self.client_file, client_info)

    def saved_tokens(self):
        """What the SDK last handed over to keep (for the protocol's `tokens`), read as it was stored."""
        return _load(self.tokens_file, OAuthToken)


def _load(path, model):
    if not os.path.exists(path):
        return None
    with open(path) as file:
        return model.model_validate_json(file.read())


def _save(path, value):
    # The SDK's documented storage passes None through as well (docs_src/oauth_clients/tutorial001.py).
    if value is None:
        if os.path.exists(path):
            os.remove(path)
        return
    with open(path, "w") as file:
        file.write(value.model_dump_json(exclude_none=True))
