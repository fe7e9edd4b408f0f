// The panel under the board: the picture's facts as the server words them (docs/activity.md, "The
// panel"): one line per seat (its colour, its name and material, whose turn) and the lines below
// (the last turn, how to win).
import { $, el } from "./dom.js";

export function showPanel(panel) {
  const box = $("#panel");
  if (!panel) {
    box.replaceChildren();
    return;
  }
  const rows = (panel.rows || []).map((row) =>
    el("div", { class: `seat${row.to_move ? " to-move" : ""}${row.winner ? " winner" : ""}` },
      el("span", { class: "swatch", style: `background:${row.colour || "transparent"}` }),
      (row.cells || []).filter((cell) => cell !== "").join(" · ")));
  const lines = (panel.lines || []).map((line) => el("div", { class: "fact" }, line));
  box.replaceChildren(...rows, ...lines);
}
