// Building a turn by tapping. The server's turn builder (docs/activity.md, "The turn builder") lists the
// actions that may come next after those chosen so far, each with the cell a tap starts on (`from`) and
// the cell it ends on (`to`, none for a placement); the page only shows them: the `from` cells are
// highlighted, a tap on one shows where it may go, a tap there chooses the action. Several actions on the
// same cells (Bump's rotations and bump choices) open a chooser of the server's labels; actions without a
// cell (swap, pass) are buttons. Each choice asks the server again, which answers with the position the
// turn leads to (shown before sending); Play sends the actions, and the server plays them as /move does.
import { $, el, fill } from "./dom.js";
import { say } from "./words.js";

export class TurnBuilder {
  /**
   * @param {{api: import("./api.js").Api, board: import("./board.js").BoardView,
   *          onPreview: (view: {scene: object, panel: object}|null) => void,
   *          onPlayed: (answer: object) => void, onRefused: (error: Error) => void}} hooks
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.match = null;
    this.version = null;
    this.state = null; // the server's last answer: {actions, notation, legal, can_end, why_not_end, view}
    this.source = null; // the `from` cell tapped, whose destinations are shown
    this.pending = null; // the cell of the action being asked for: shown picked until the server answers
    this.busy = false;
    this.playing = false; // a Play is on its way: its answer carries the new position
    this.generation = 0; // answers meant for an older turn are dropped
  }

  /** Start building on a view where the viewer is to move; stop on any other view (or null). */
  reset(view) {
    this.generation += 1;
    this.state = null;
    this.source = null;
    this.pending = null;
    this.busy = false;
    const mine = view && view.latest && view.you && view.you.can_act && view.you.to_move;
    this.match = mine ? view.match.id : null;
    this.version = mine ? view.match.version : null;
    this.show();
    if (mine) this.ask([]);
  }

  active() {
    return this.match !== null && this.state !== null;
  }

  /** The highlights for the board: where a tap does something now. */
  highlights() {
    const kinds = {};
    if (!this.active()) return kinds;
    if (this.pending !== null) {
      kinds[this.pending] = "picked";
      return kinds;
    }
    if (this.source !== null) {
      for (const action of this.state.legal) if (action.from === this.source && action.to) kinds[action.to] = "target";
      kinds[this.source] = "picked"; // (tapped again, it offers the actions that end there: Bump's turns in place)
      return kinds;
    }
    for (const action of this.state.legal) if (action.from) kinds[action.from] = "target";
    return kinds;
  }

  /** A tap on a cell; answers whether it did anything (a tap with no legal meaning does nothing). */
  tap(cell) {
    if (!this.active() || this.busy) return false;
    const legal = this.state.legal;
    if (this.source !== null) {
      const here = legal.filter((action) => action.from === this.source && action.to === cell);
      if (here.length) return this.decide(here, cell);
      const leaving = cell === this.source;
      this.source = null;
      if (leaving || !legal.some((action) => action.from === cell)) {
        this.show();
        return true;
      }
    }
    const starting = legal.filter((action) => action.from === cell);
    if (starting.length === 0) return false;
    if (starting.every((action) => !action.to)) return this.decide(starting, cell);
    this.source = cell; // where it may go is highlighted; the actions that stay here are buttons
    this.show();
    return true;
  }

  decide(actions, cell) {
    if (actions.length === 1) {
      this.pending = cell; // seen at once, before the server answers
      this.choose(actions[0]);
    } else {
      this.hooks.board.highlight({ ...this.highlights(), [cell]: "picked" });
      this.offer(actions);
    }
    return true;
  }

  /** Several actions on the same tap: the server's labels to choose from. */
  offer(actions) {
    const box = $("#chooser");
    const close = () => {
      box.hidden = true;
      this.source = null;
      this.show();
    };
    box.replaceChildren(
      el("div", { class: "chooser-title" }, say("Which one?")),
      ...actions.map((action) => el("button", { type: "button", class: "option", "data-notation": action.notation,
        onclick: () => { box.hidden = true; this.choose(action); } }, action.label || action.notation)),
      el("button", { type: "button", class: "cancel", onclick: close }, say("Cancel")),
    );
    box.hidden = false;
  }

  choose(action) {
    this.source = null;
    return this.ask([...this.state.actions, action.notation]);
  }

  undo() {
    if (this.active() && this.state.actions.length) this.ask(this.state.actions.slice(0, -1));
  }

  clear() {
    if (this.active() && this.state.actions.length) this.ask([]);
  }

  async ask(actions) {
    const generation = this.generation;
    this.busy = true;
    this.show();
    try {
      const answer = await this.hooks.api.post(`matches/${this.match}/turn`, { version: this.version, actions });
      if (generation !== this.generation) return;
      this.state = answer;
      this.source = null;
      this.pending = null;
      this.hooks.onPreview(answer.actions.length ? answer.view : null);
    } catch (error) {
      if (generation === this.generation) {
        this.pending = null;
        this.hooks.onRefused(error);
      }
    } finally {
      if (generation === this.generation) {
        this.busy = false;
        this.show();
      }
    }
  }

  async play() {
    if (!this.active() || !this.state.can_end || this.busy) return;
    const generation = this.generation;
    this.busy = true;
    this.playing = true;
    this.show();
    performance.mark("hexplay:play");
    try {
      const answer = await this.hooks.api.post(`matches/${this.match}/play`, { version: this.version, actions: this.state.actions });
      this.playing = false;
      if (generation !== this.generation) return;
      this.busy = false;
      this.hooks.onPlayed(answer);
    } catch (error) {
      this.playing = false;
      if (generation !== this.generation) return;
      this.busy = false;
      this.show();
      this.hooks.onRefused(error);
    }
  }

  /** The footer: the turn so far, the actions without a cell, Undo, Clear and Play. */
  show() {
    const footer = $("#turn-builder");
    this.hooks.board.highlight(this.highlights());
    if (this.match === null) {
      footer.replaceChildren();
      footer.hidden = true;
      return;
    }
    footer.hidden = false;
    const state = this.state;
    if (!state) {
      footer.replaceChildren(el("div", { class: "turn-line" }, el("span", { class: "hint" }, say("Your turn"))));
      return;
    }
    const buttons = state.legal
      .filter((action) => !action.from || (this.source !== null && action.from === this.source && !action.to))
      .map((action) => el("button", { type: "button", class: "option", "data-notation": action.notation, disabled: this.busy,
        onclick: () => this.choose(action) }, action.label || action.notation));
    const chosen = state.actions.length > 0;
    let hint;
    if (this.source !== null) hint = say("{cell}: tap where it goes.", { cell: this.source });
    else if (state.legal.length === 0) hint = state.can_end ? say("Your turn is ready: press Play.") : state.why_not_end;
    else if (!chosen) hint = say("Your turn: tap a highlighted cell.");
    else hint = state.can_end ? say("Press Play, or go on with a highlighted cell.") : (state.why_not_end || say("Go on: tap a highlighted cell."));
    fill(footer,
      el("div", { class: "turn-line" },
        chosen ? el("span", { class: "notation" }, state.notation) : null,
        el("span", { class: "hint" }, hint)),
      buttons.length ? el("div", { class: "turn-options" }, buttons) : null,
      el("div", { class: "turn-buttons" },
        el("button", { type: "button", id: "undo", disabled: this.busy || !chosen, onclick: () => this.undo() }, say("Undo")),
        el("button", { type: "button", id: "clear", disabled: this.busy || !chosen, onclick: () => this.clear() }, say("Clear")),
        el("button", { type: "button", id: "play", class: "primary", disabled: this.busy || !state.can_end || !chosen,
          onclick: () => this.play() }, say("Play"))),
    );
  }
}
