"""How the MCP SDK keeps a token's lifetime and refresh token. Case:
  negative       the sign-in's token response says "expires_in": -60, and so does every refresh's:
                 the token is expired on arrival. The application makes two calls (GET /resource).
  empty-refresh-token  the sign-in gives a one-second token and rt-1; its refresh answers
                 "refresh_token": "" (with a new one-second token); the application calls once
                 after each expiry.
  restart        the application signs in (a one-second token and rt-1), then is relaunched: a new
                 provider over the same storage, as the SDK's docs have a persistent TokenStorage
                 serve the next run; after the expiry it calls GET /resource.
The probe's server takes only the tokens it issued and has not seen expire."""

import asyncio
import time

from mcp_application import Application, MCPServer, attempt
from throwaway_server import case_argument, json_answer, verdict, watchdog

CASES = {("negative",): None, ("empty-refresh-token",): None, ("restart",): None}


async def main(case):
    server = None
    issued = iter(f"at-{n}" for n in range(1, 20))
    lifetime = -60 if case == ("negative",) else 1

    def token(request):
        access_token = next(issued)
        server.valid_tokens.add(access_token)
        refresh_token = "" if case == ("empty-refresh-token",) and request.field("grant_type") == "refresh_token" else "rt-1"
        return json_answer({"access_token": access_token, "token_type": "Bearer", "expires_in": lifetime, "refresh_token": refresh_token})

    server = MCPServer(token)
    app = Application(server)
    await attempt("the application signs in: its first MCP call (list the tools)", app.list_tools())
    made = server.server.requests
    if case == ("negative",):
        for _ in range(2):
            await attempt("it calls GET /resource", app.get("/resource"))
        refreshes = server.server.count("/token", grant_type="refresh_token")
        bare = [r for r in made if r.path == "/resource" and "Authorization" not in r.headers]
        verdict(refreshes >= 2 and bare and len(app.browser_opened) >= 2,
                f"with expires_in -60 the SDK refreshes before every request ({refreshes} refreshes) and never sends the "
                "refreshed token, expired on arrival too: the call goes without Authorization and a new sign-in follows",
                f"{refreshes} refreshes, {len(bare)} calls without Authorization, {len(app.browser_opened)} sign-ins")
    elif case == ("empty-refresh-token",):
        time.sleep(1.2)
        await attempt("after the expiry it calls GET /resource (the refresh answers refresh_token \"\")", app.get("/resource"))
        time.sleep(1.2)
        await attempt("after the next expiry it calls GET /resource again", app.get("/resource"))
        refreshes = server.server.count("/token", grant_type="refresh_token")
        bare = any(r.path == "/resource" and "Authorization" not in r.headers for r in made)
        verdict(refreshes == 1 and len(app.browser_opened) == 2 and bare,
                "a refresh answering \"refresh_token\": \"\" replaces rt-1 with the empty string (only a missing member keeps "
                "the old one): at the next expiry the SDK cannot refresh, sends the call without Authorization and opens a "
                "new interactive sign-in", f"{refreshes} refreshes, {len(app.browser_opened)} sign-ins, call without Authorization: {bare}")
    else:
        await app.close()
        time.sleep(1.2)
        server.valid_tokens.discard("at-1")
        relaunched = Application(server, storage=app.storage)
        await attempt("the relaunched application (same storage) calls GET /resource after the expiry", relaunched.get("/resource"))
        await relaunched.close()
        expired_sent = any(r.path == "/resource" and r.headers.get("Authorization") == "Bearer at-1" for r in made)
        refreshes = server.server.count("/token", grant_type="refresh_token")
        verdict(expired_sent and refreshes == 0 and len(relaunched.browser_opened) == 1,
                "after a relaunch the SDK does not know the stored token's expiry: it sends the expired access token, "
                "and on the 401 opens a new interactive sign-in instead of refreshing with the stored refresh token",
                f"expired token sent: {expired_sent}; {refreshes} refreshes; {len(relaunched.browser_opened)} sign-ins")
    await app.close()


case = case_argument(CASES, "mcp_token_lifetime.py <negative|empty-refresh-token|restart>")
watchdog()
asyncio.run(main(case))
