// The page's one way to the bot's web API. Inside Discord the page reaches only its own origin through
// Discord's proxy, so every call goes to ".proxy/api/activity/…" relative to the page (the URL mapping sends
// it to the bot's web server; in the sandbox the page is served at /activity/ and the sandbox maps the same
// prefix). Every call but the token exchange carries the player's access token; a refused token is an
// AuthError ("reopen the board"), a refused action a Refusal with the server's words.

export const API_ROOT = new URL(".proxy/api/activity/", window.location.href);

export class Refusal extends Error {
  /** @param {string} message the server's sentence for the player  @param {number} status  @param {string} code */
  constructor(message, status, code = "") {
    super(message);
    this.status = status;
    this.code = code; // the server's kind: "changed", "not_your_turn", "illegal_move"…
  }
}

/** The token was refused (forged, expired, revoked): the page cannot act until the board is reopened. */
export class AuthError extends Refusal {}

export class Api {
  constructor() {
    this.token = null;
  }

  url(path, query) {
    const url = new URL(path, API_ROOT);
    for (const [key, value] of Object.entries(query || {})) {
      if (value !== undefined && value !== null && value !== "") url.searchParams.set(key, String(value));
    }
    return url;
  }

  async call(method, path, { query, body } = {}) {
    const headers = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(this.url(path, query), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "same-origin",
      });
    } catch (error) {
      throw new Refusal("", 0, "unreachable"); // the page says it in the player's language
    }
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    const code = data && typeof data.error === "string" ? data.error : "";
    const reason = data && typeof data.reason === "string" ? data.reason : "";
    if (response.status === 401) throw new AuthError(reason, 401, code || "reopen");
    if (!response.ok || code) throw new Refusal(reason || `${response.status} ${response.statusText}`, response.status, code);
    return data;
  }

  get(path, query) {
    return this.call("GET", path, { query });
  }

  post(path, body) {
    return this.call("POST", path, { body });
  }
}
