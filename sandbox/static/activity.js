// The sandbox's Discord client for Activities: it opens the Activity (the real page, running the unchanged
// Embedded App SDK from npm) in an iframe beside the chat, and speaks the SDK's postMessage protocol as the
// Discord client does (read from the SDK's own code, @discord/embedded-app-sdk output/Discord.mjs):
//   frame  → [HANDSHAKE, {v: 1, encoding: "json", client_id, frame_id, sdk_version?}]
//   parent → [FRAME, {cmd: "DISPATCH", evt: "READY", nonce: null, data: {v, config, user}}]
//   frame  → [FRAME, {cmd, args, nonce}]   parent → [FRAME, {cmd, evt: null, nonce, data}]
//                                             or    [FRAME, {cmd, evt: "ERROR", nonce, data: {code, message}}]
//   either → [CLOSE, {code, message}]
// Both pages are served from the sandbox's one origin, which the SDK accepts (it allows its own origin).
// AUTHORIZE is answered by the emulator's authorize step for the sandbox user, AUTHENTICATE by checking the
// token with the emulator, as Discord's client asks Discord (docs/activity.md, "The sandbox").
"use strict";

const ActivityHost = (() => {
  const OP = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2, HELLO: 3 };
  const ERRORS = { INVALID_PAYLOAD: 4000, INVALID_COMMAND: 4002, INVALID_CLIENTID: 4007, INVALID_TOKEN: 4009 };
  const CLOSE_INVALID_CLIENTID = 4000;
  const PHONE_WIDTH = 600; // under this the Activity takes the screen, as in Discord's mobile app

  let current = null;

  function randomId() {
    return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
  }

  async function post(path, body) {
    const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    return { ok: response.ok, status: response.status, data };
  }

  class Frame {
    /** @param {string} user the sandbox user (alice…)  @param {{instance_id, channel_id, guild_id, application_id}} launch */
    constructor(user, me, launch) {
      this.user = user;
      this.me = me;
      this.launch = launch;
      this.frameId = randomId();
      this.ready = false;
      this.onMessage = (event) => this.received(event);
    }

    url() {
      const query = new URLSearchParams({
        frame_id: this.frameId,
        instance_id: this.launch.instance_id,
        platform: window.innerWidth < PHONE_WIDTH ? "mobile" : "desktop",
      });
      if (this.launch.guild_id) query.set("guild_id", this.launch.guild_id);
      if (this.launch.channel_id) query.set("channel_id", this.launch.channel_id);
      return `/activity/?${query}`;
    }

    open(panel) {
      this.openedAt = performance.timeOrigin + performance.now(); // ms since the epoch, for the benchmark
      window.addEventListener("message", this.onMessage);
      this.iframe = document.createElement("iframe");
      this.iframe.id = "activity-frame";
      this.iframe.title = "Hexplay";
      this.iframe.allow = "clipboard-write";
      this.iframe.src = this.url();
      panel.querySelector(".activity-body").replaceChildren(this.iframe);
      panel.hidden = false;
      document.body.classList.add("activity-open");
    }

    close() {
      window.removeEventListener("message", this.onMessage);
      if (this.iframe) this.iframe.remove();
      this.iframe = null;
    }

    send(opcode, payload) {
      if (this.iframe && this.iframe.contentWindow) this.iframe.contentWindow.postMessage([opcode, payload], window.location.origin);
    }

    received(event) {
      if (!this.iframe || event.source !== this.iframe.contentWindow || event.origin !== window.location.origin) return;
      if (!Array.isArray(event.data)) return;
      const [opcode, payload] = event.data;
      if (opcode === OP.HANDSHAKE) this.handshake(payload || {});
      else if (opcode === OP.FRAME && this.ready) this.command(payload || {});
      else if (opcode === OP.CLOSE) hide();
    }

    handshake(payload) {
      if (payload.v !== 1 || payload.frame_id !== this.frameId) {
        this.send(OP.CLOSE, { code: ERRORS.INVALID_PAYLOAD, message: "bad handshake" });
        return;
      }
      if (payload.client_id !== this.launch.application_id) {
        this.send(OP.CLOSE, { code: CLOSE_INVALID_CLIENTID, message: "this Activity belongs to another application" });
        return;
      }
      this.ready = true;
      this.send(OP.FRAME, {
        cmd: "DISPATCH",
        evt: "READY",
        nonce: null,
        data: {
          v: 1,
          config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
          user: { id: this.me.id, username: this.me.name, discriminator: "0" },
        },
      });
    }

    async command({ cmd, args, nonce }) {
      const reply = (data) => this.send(OP.FRAME, { cmd, evt: null, nonce, data });
      const fail = (code, message) => this.send(OP.FRAME, { cmd, evt: "ERROR", nonce, data: { code, message } });
      switch (cmd) {
        case "AUTHORIZE": {
          if (!args || args.client_id !== this.launch.application_id) return fail(ERRORS.INVALID_CLIENTID, "unknown client_id");
          const answer = await post("/api/activity/authorize", { user: this.user, client_id: args.client_id, scope: args.scope || [] });
          return answer.ok && answer.data && answer.data.code ? reply({ code: answer.data.code })
            : fail(ERRORS.INVALID_PAYLOAD, (answer.data && (answer.data.reason || answer.data.error)) || "authorize failed");
        }
        case "AUTHENTICATE": {
          const token = args && args.access_token;
          const answer = await post("/api/activity/authenticate", { access_token: token || "" });
          if (!answer.ok || !answer.data || !answer.data.user) return fail(ERRORS.INVALID_TOKEN, "Invalid access token");
          const user = { discriminator: "0", public_flags: 0, ...answer.data.user };
          if (!user.username) user.username = user.name || "";
          return reply({ ...answer.data, access_token: token, user });
        }
        case "CAPTURE_LOG":
          return reply(null);
        case "SUBSCRIBE":
        case "UNSUBSCRIBE":
          return reply({ evt: (args && args.evt) || null });
        default:
          return fail(ERRORS.INVALID_COMMAND, `the sandbox does not answer ${cmd}`);
      }
    }
  }

  function panel() {
    let found = document.getElementById("activity-panel");
    if (found) return found;
    found = document.createElement("aside");
    found.id = "activity-panel";
    found.hidden = true;
    const head = document.createElement("header");
    const title = document.createElement("span");
    title.textContent = "Hexplay";
    const close = document.createElement("button");
    close.type = "button";
    close.id = "activity-close";
    close.title = say("Leave the Activity");
    close.setAttribute("aria-label", say("Leave the Activity"));
    close.textContent = "✕";
    close.addEventListener("click", hide);
    head.append(title, close);
    const body = document.createElement("div");
    body.className = "activity-body";
    found.append(head, body);
    document.getElementById("app").append(found);
    return found;
  }

  /** Open the Activity the bot launched (LAUNCH_ACTIVITY) for ``user``; a second launch replaces the first. */
  function show(user, me, launch) {
    if (current) current.close();
    current = new Frame(user, me, launch);
    current.open(panel());
    return current;
  }

  function hide() {
    if (current) current.close();
    current = null;
    const found = document.getElementById("activity-panel");
    if (found) found.hidden = true;
    document.body.classList.remove("activity-open");
  }

  return { show, hide, current: () => current };
})();
