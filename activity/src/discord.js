// Who the player is, the way Discord's Activities do it: the Embedded App SDK's handshake with the client
// (new DiscordSDK, ready), then authorize → a one-time code → the bot's server exchanges it for an access
// token with the client secret (never seen here) → authenticate with that token. The token then goes with
// every call to the bot's API, which checks it against Discord.
import { DiscordSDK } from "@discord/embedded-app-sdk";

const SCOPES = ["identify"];

/**
 * Sign in; ``next(sdk, session)`` (the page's first call with the token) runs while the client authenticates,
 * as it does not depend on it: one round trip fewer before the board.
 * @param {import("./api.js").Api} api
 * @returns {Promise<{sdk: DiscordSDK, user: object, session: object, first: any}>}
 */
export async function signIn(api, next) {
  const config = await api.get("config");
  const sdk = new DiscordSDK(config.client_id, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: SCOPES,
  });
  const session = await api.post("token", { code });
  api.token = session.access_token;
  const [auth, first] = await Promise.all([
    sdk.commands.authenticate({ access_token: session.access_token }),
    next(sdk, session),
  ]);
  return { sdk, user: auth.user, session, first };
}
