// Live updates (docs/activity.md, "Live updates"): one WebSocket per match shown, through Discord's proxy,
// whose token is its first message (a browser's WebSocket carries no Authorization header). The server says
// "changed" with the match's version whenever it changes, from any process; a version the page has not
// drawn means "fetch the view again". While the socket is down, a look every few seconds stands in.
import { API_ROOT } from "./api.js";

const LOOK_SECONDS = 5; // the fallback's period while the socket is closed
const RECONNECT_SECONDS = 2;
const CLOSED_FOR = { 4401: "reopen", 4403: "not_a_member" }; // the server's close codes

export class Live {
  /**
   * @param {import("./api.js").Api} api
   * @param {{onVersion: (version: number) => void, onRefused: (code: string) => void}} hooks
   */
  constructor(api, hooks) {
    this.api = api;
    this.hooks = hooks;
    this.match = null;
    this.socket = null;
    this.timer = 0;
    this.looking = 0;
  }

  watch(match) {
    if (match === this.match) return;
    this.stop();
    this.match = match;
    this.connect();
  }

  stop() {
    this.match = null;
    clearTimeout(this.timer);
    clearInterval(this.looking);
    this.looking = 0;
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close();
      this.socket = null;
    }
  }

  connect() {
    const match = this.match;
    const url = new URL(`matches/${match}/live`, API_ROOT);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    let socket;
    try {
      socket = new WebSocket(url);
    } catch {
      this.fallBack();
      return;
    }
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ token: this.api.token }));
    socket.onmessage = (event) => {
      let data = null;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (this.match !== match || !data) return;
      if (data.type === "hello") {
        clearInterval(this.looking); // the socket is up: no need to look
        this.looking = 0;
      }
      if ((data.type === "hello" || data.type === "changed") && Number.isInteger(data.version)) this.hooks.onVersion(data.version);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket || this.match !== match) return;
      this.socket = null;
      if (CLOSED_FOR[event.code]) {
        this.hooks.onRefused(CLOSED_FOR[event.code]);
        return;
      }
      this.fallBack();
      this.timer = setTimeout(() => this.match === match && this.connect(), RECONNECT_SECONDS * 1000);
    };
  }

  /** While the socket is down, look at the match's version every few seconds. */
  fallBack() {
    if (this.looking) return;
    const match = this.match;
    this.looking = setInterval(async () => {
      if (this.match !== match) return;
      try {
        const view = await this.api.get(`matches/${match}`);
        if (this.match === match) this.hooks.onVersion(view.match.version);
      } catch {
        // the next look tries again
      }
    }, LOOK_SECONDS * 1000);
  }
}
