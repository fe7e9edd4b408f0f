// Hexplay's Activity: the board you touch. Signs in through the Embedded App SDK, opens the match of the
// channel or thread it was launched in (or, from the app launcher, the player's matches, their turn
// first), draws it as SVG with pinch-zoom and pan, steps through its history, builds the player's turn by
// tapping and redraws when anyone moves. The rules and the board's words are the server's
// (docs/activity.md); the page's own words come from the catalogs (words.js).
import { Api, AuthError } from "./api.js";
import { BoardView } from "./board.js";
import { signIn } from "./discord.js";
import { $, el, fill, notice } from "./dom.js";
import { Live } from "./live.js";
import { showPanel } from "./panel.js";
import { TurnBuilder } from "./turn.js";
import { say, speak } from "./words.js";
import { ZoomView } from "./zoom.js";

speak(navigator.language);
const api = new Api();
const board = new BoardView($("#content"));
const zoom = new ZoomView($("#board"), $("#content"), {
  onTap: (target, event) => tapped(target, event),
  onZoom: (scale) => board.zoomed(scale),
});
// view: the view drawn; latest: the match's latest view (the one played on); ply: the history step shown
const page = { sdk: null, me: null, view: null, latest: null, ply: null, locked: false, drawn: 0 };
// When things reached the screen, for the benchmark (benchmarks/bench_activity.py): the first board's paint
// (ms since the epoch, to compare with the parent's opening), each tap's and each tap's preview (ms after it);
// and how many views a change notice fetched (the browser tests wait on it).
const seen = { firstPaint: 0, taps: [], previews: [], tapAt: 0, noticesFetched: 0 };
const turn = new TurnBuilder({
  api,
  board,
  onPreview: (preview) => {
    drawScene(preview || page.latest, true);
    const tappedAt = seen.tapAt; // the tap that asked for this position (not an Undo or a Clear)
    seen.tapAt = 0;
    if (tappedAt) afterPaint((now) => seen.previews.push(now - tappedAt));
  },
  onPlayed: (answer) => {
    if (answer.view) showView(answer.view);
    else refresh();
    afterOwnPlay(answer.version);
  },
  onRefused: (error) => {
    failed(error); // (a turn refused as "changed" fetches the match again)
    afterOwnPlay(error && error.code === "changed" ? Infinity : 0);
  },
});
// The newest version a change notice told of while the page's own Play was on its way (0: none). That Play's
// own notice comes before its answer (the server tells watchers as it stores the turn, then answers); fetching
// the view then would ask for what the answer brings, while the server draws and posts the thread's board.
let heardWhilePlaying = 0;
const live = new Live(api, {
  onVersion: (version) => changed(version),
  onRefused: (code) => (code === "reopen" ? lockOut() : live.stop()),
});
window.hexplay = { page, turn, zoom, board, api, seen, live }; // what is shown, for the browser tests and the benchmark

function mark(name) {
  performance.mark(`hexplay:${name}`);
}

/** Call ``then(performance.now())`` once what was just drawn is on the screen (the frame after it). */
function afterPaint(then) {
  requestAnimationFrame(() => setTimeout(() => then(performance.now()), 0));
}

function message(text) {
  const box = $("#message");
  box.textContent = text || "";
  box.hidden = !text;
}

/** A refused token: nothing more can be done from this page until the board is reopened. */
function lockOut(error) {
  page.locked = true;
  live.stop();
  turn.reset(null);
  $("#app").classList.add("locked");
  const reason = error && error.message ? error.message : say("Your sign-in is no longer valid: close the board and open it again.");
  notice(reason, { kind: "auth", sticky: true });
}

function failed(error) {
  if (error instanceof AuthError) return lockOut(error);
  if (error && error.code === "changed") {
    notice(say("The match has moved on: here it is now."), { kind: "info" });
    return refresh();
  }
  if (error && error.code === "unreachable") return notice(say("The server did not answer. Try again."));
  notice((error && error.message) || say("The server did not answer. Try again."));
}

// ------------------------------------------------------------------ the list of matches

function showList(matches) {
  page.view = page.latest = null;
  live.stop();
  turn.reset(null);
  $("#board").hidden = true;
  $("#panel").replaceChildren();
  $("#history").replaceChildren();
  $("#match-actions").replaceChildren();
  $("#back").hidden = true;
  $("#title").textContent = say("Your matches");
  $("#status").textContent = "";
  const list = $("#list");
  list.hidden = false;
  if (matches.length === 0) {
    list.replaceChildren(el("p", { class: "empty" }, say("You have no match in progress. Start one with /play in a channel.")));
    return;
  }
  list.replaceChildren(...matches.map((match) =>
    el("button", { type: "button", class: `match${match.your_turn ? " yours" : ""}`, "data-match": match.id,
      onclick: () => openMatch(match.id, true) },
    el("b", {}, match.title),
    el("span", { class: "who" }, match.your_turn ? say("Your turn") : say("{name} to move", { name: match.to_move || "—" })))));
  mark("list");
}

// ------------------------------------------------------------------ one match

async function openMatch(id, fromList) {
  $("#list").hidden = true;
  $("#board").hidden = false;
  $("#back").hidden = !fromList;
  try {
    showView(await api.get(`matches/${id}`, { have: board.staticKey }));
  } catch (error) {
    failed(error);
  }
}

/** Fetch the match's latest view and draw it. ``onNotice``: a change notice asked, so an answer no newer than the
 * view drawn is dropped. Two notices of one version (a notice and the socket's hello after it reconnects, or the
 * fallback's look) fetch it twice; drawing the second answer again restarted the turn being built on the first
 * (a tap lost), and an answer overtaken by a newer one would be drawn over it. A refused turn or a Play answered
 * without its view always draws: the turn builder must start again even when the version is the same. */
async function refresh(onNotice = false) {
  const id = page.latest ? page.latest.match.id : null;
  if (id === null || page.locked) return;
  try {
    const view = await api.get(`matches/${id}`, { have: board.staticKey }); // the static layers are kept
    const latest = page.latest;
    const stale = onNotice && latest && view.match.version <= latest.match.version;
    if (latest && latest.match.id === id && !stale) showView(view);
  } catch (error) {
    if (!(error && error.code === "changed")) failed(error);
  } finally {
    if (onNotice) seen.noticesFetched += 1;
  }
}

function drawScene(view, keepView) {
  const box = board.draw(view.scene);
  zoom.setBox(box, keepView);
  board.highlight(turn.highlights());
  showPanel(view.panel);
}

/** Draw a view of the match: its latest position, or a step of its history (``view.latest`` false). */
function showView(view) {
  const first = page.latest === null || page.latest.match.id !== view.match.id;
  page.view = view;
  if (view.latest) {
    page.latest = view;
    page.ply = null;
  }
  const yours = view.latest && view.you && view.you.to_move && view.you.can_act;
  $("#title").textContent = view.match.title;
  $("#status").textContent = yours ? say("Your turn") : (view.panel && view.panel.status) || "";
  $("#status").className = yours ? "yours" : "";
  drawScene(view, !first);
  showHistory();
  if (view.latest) turn.reset(view);
  else turn.reset(null);
  showActions();
  live.watch(view.match.id, view.match.version);
  page.drawn += 1;
  mark(first ? "first-board" : "board");
  if (page.drawn === 1) afterPaint((now) => (seen.firstPaint = performance.timeOrigin + now));
}

function showHistory() {
  const nav = $("#history");
  const latest = page.latest;
  if (!latest || latest.plies === 0) {
    nav.replaceChildren();
    return;
  }
  const ply = page.ply === null ? latest.plies : page.ply;
  const go = (to) => () => stepTo(to);
  nav.replaceChildren(
    el("button", { type: "button", id: "first", "aria-label": say("First position"), disabled: ply === 0, onclick: go(0) }, "«"),
    el("button", { type: "button", id: "previous", "aria-label": say("Previous turn"), disabled: ply === 0, onclick: go(ply - 1) }, "‹"),
    el("span", { id: "ply" }, page.ply === null ? say("Turn {ply} of {plies}", { ply, plies: latest.plies }) : say("Turn {ply} of {plies} (history)", { ply, plies: latest.plies })),
    el("button", { type: "button", id: "next", "aria-label": say("Next turn"), disabled: ply === latest.plies, onclick: go(ply + 1) }, "›"),
    el("button", { type: "button", id: "last", "aria-label": say("Latest position"), disabled: ply === latest.plies, onclick: go(latest.plies) }, "»"),
  );
}

async function stepTo(ply) {
  const latest = page.latest;
  if (!latest) return;
  if (ply >= latest.plies) {
    showView(latest);
    return;
  }
  page.ply = Math.max(0, ply);
  showHistory();
  try {
    const view = await api.get(`matches/${latest.match.id}`, { ply: page.ply, have: board.staticKey });
    if (page.ply === view.ply && page.latest && page.latest.match.id === view.match.id) showView(view);
  } catch (error) {
    failed(error);
  }
}

// ------------------------------------------------------------------ resign and offers

/** Resign, offers and their answers: what the server allows this viewer now (latest view only). */
function showActions() {
  const row = $("#match-actions");
  const view = page.latest;
  if (!view || page.ply !== null || page.locked || !view.you || !view.you.player) {
    row.replaceChildren();
    return;
  }
  const allowed = view.actions || {};
  const buttons = [];
  for (const offer of view.offers || []) {
    if (!offer.yours_to_answer) continue;
    const kind = offer.kind;
    buttons.push(el("span", { class: "offer" }, kind === "draw" ? say("{name} offers a draw.", { name: offer.by }) : say("{name} asks to take back their turn.", { name: offer.by })));
    buttons.push(el("button", { type: "button", class: "action accept", "data-action": `accept-${kind}`, onclick: () => act("offer", { kind, answer: "accept" }) }, say("Accept")));
    buttons.push(el("button", { type: "button", class: "action decline", "data-action": `decline-${kind}`, onclick: () => act("offer", { kind, answer: "decline" }) }, say("Decline")));
  }
  if (allowed.offer_draw) buttons.push(el("button", { type: "button", class: "action", "data-action": "offer-draw", onclick: () => act("offer", { kind: "draw" }) }, say("Offer a draw")));
  if (allowed.offer_undo) buttons.push(el("button", { type: "button", class: "action", "data-action": "offer-undo", onclick: () => act("offer", { kind: "undo" }) }, say("Ask to take back")));
  if (allowed.resign) {
    buttons.push(el("button", { type: "button", class: "action resign", "data-action": "resign",
      onclick: () => act("resign", {}, say("Resign this match? It cannot be undone.")) }, say("Resign")));
  }
  fill(row, buttons);
}

async function act(path, body, question) {
  if (question && !(await confirmed(question))) return;
  try {
    const answer = await api.post(`matches/${page.latest.match.id}/${path}`, { version: page.latest.match.version, ...body });
    if (answer.view) showView(answer.view);
    else refresh();
  } catch (error) {
    failed(error);
  }
}

/** A question with yes and no (no window.confirm: Discord's frame may not allow dialogs). */
function confirmed(question) {
  return new Promise((resolve) => {
    const box = $("#chooser");
    const answer = (yes) => () => {
      box.hidden = true;
      resolve(yes);
    };
    box.replaceChildren(
      el("div", { class: "chooser-title" }, question),
      el("button", { type: "button", class: "option danger", id: "confirm-yes", onclick: answer(true) }, say("Yes")),
      el("button", { type: "button", class: "cancel", id: "confirm-no", onclick: answer(false) }, say("No")),
    );
    box.hidden = false;
  });
}

// ------------------------------------------------------------------ taps and changes

function tapped(target, event) {
  if (page.locked || page.ply !== null) return;
  const cell = BoardView.cellOf(target);
  if (!cell || !turn.tap(cell)) return;
  // How long the tap took to show on the screen: from the input event to the frame after it was handled.
  const started = event.timeStamp;
  seen.tapAt = started;
  afterPaint((now) => seen.taps.push(now - started));
}

/** A change notice: fetch the latest view if that version is newer than the one drawn (and the page's Play does
 * not bring it). Only newer: the socket's "hello" tells the version read when it connected, and on a busy server
 * it may come after the page's own Play has drawn a later one (versions only grow). */
function changed(version) {
  if (turn.playing) heardWhilePlaying = Math.max(heardWhilePlaying, version);
  else if (page.latest && !page.locked && version > page.latest.match.version) refresh(true);
}

/** The page's Play was answered (at ``version``; Infinity when it refused and the page looks again anyway): a
 * change told of meanwhile that the answer did not bring (the opponent's answer already) is fetched now. */
function afterOwnPlay(version) {
  const heard = heardWhilePlaying;
  heardWhilePlaying = 0;
  if (heard > 0 && heard > version) changed(heard);
}

// ------------------------------------------------------------------ start

$("#back").addEventListener("click", async () => {
  try {
    showList((await api.get("me")).matches);
  } catch (error) {
    failed(error);
  }
});

(async function start() {
  mark("start");
  message(say("Connecting to Discord…"));
  try {
    const { sdk, first: me } = await signIn(api, (sdk) =>
      api.get("me", { instance_id: sdk.instanceId, channel_id: sdk.channelId, guild_id: sdk.guildId }));
    page.sdk = sdk;
    mark("signed-in");
    page.me = me;
    speak(me.language);
    $("#back").textContent = say("Your matches");
    message("");
    if (me.launched !== null && me.launched !== undefined) await openMatch(me.launched, me.matches.length > 1);
    else showList(me.matches);
  } catch (error) {
    message("");
    failed(error);
  }
})();
