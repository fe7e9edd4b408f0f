// The board as SVG, from the server's scene (docs/activity.md, "The scene"): areas, lines, cells with their
// names, labels, pieces and the last turn's marks, in board units (neighbouring cells 1 apart, y down). The
// page draws what it is sent and knows no rules; a tap is read back as the cell under it. Cell names are
// drawn at the scene's size when that is readable on the screen, enlarged up to what fits in a cell when
// it is not, and hidden when even that would not fit (zoom in to read them).
import { marker, node } from "./shapes.js";

const LABEL_MIN_PIXELS = 10; // the smallest text that reads on a phone
const LABEL_ROOM = 0.84; // of a cell's width (1 unit) a name may take
const CHAR_WIDTH = 0.62; // a character's width per unit of font size (DejaVu Sans digits and lower case)
const LAYERS = ["areas", "lines", "cells", "highlights", "labels", "marks", "pieces"];

const points = (list) => list.map(([x, y]) => `${x},${y}`).join(" ");
const colour = (value) => value || "none";

function text(at, label, { bold = false, dy = 0 } = {}) {
  const made = node("text", {
    x: at[0],
    y: at[1] + (label.dy || 0) + dy,
    fill: label.ink || "#000",
    "font-weight": bold || label.bold ? "bold" : undefined,
    "text-anchor": "middle",
    "dominant-baseline": "central",
  });
  // --label-boost (set on the labels' layer by zoomed) enlarges the cell names; other text keeps its size.
  made.style.fontSize = `calc(var(--label-boost, 1) * ${label.size}px)`;
  made.textContent = label.text;
  return made;
}

function arrowHead(from, to, width) {
  const [x1, y1] = from;
  const [x2, y2] = to;
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
  const head = Math.max(width * 3.2, 0.18);
  const base = [x2 - ux * head, y2 - uy * head];
  const side = [-uy * head * 0.6, ux * head * 0.6];
  return [to, [base[0] + side[0], base[1] + side[1]], [base[0] - side[0], base[1] - side[1]]];
}

function mark(item) {
  const stroke = colour(item.stroke);
  switch (item.kind) {
    case "ring":
    case "win":
      return node("circle", { cx: item.at[0], cy: item.at[1], r: item.r, fill: "none", stroke, "stroke-width": item.width || 0.06 });
    case "arrow": {
      const group = node("g", { class: "arrow" });
      const line = item.points;
      const width = item.width || 0.08;
      const head = arrowHead(line[line.length - 2], line[line.length - 1], width);
      const shaft = [...line.slice(0, -1), [(head[1][0] + head[2][0]) / 2, (head[1][1] + head[2][1]) / 2]];
      group.append(
        node("polyline", { points: points(shaft), fill: "none", stroke, "stroke-width": width, "stroke-linecap": "round",
          "stroke-linejoin": "round", "stroke-dasharray": item.dashed ? `${width * 2} ${width * 1.5}` : undefined }),
        node("polygon", { points: points(head), fill: stroke }),
      );
      return group;
    }
    case "star":
      return marker("star", item.at, item.r, colour(item.fill || item.stroke));
    case "cross": {
      const r = item.r || 0.35;
      const [x, y] = item.at;
      return node("path", { d: `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}`, stroke,
        "stroke-width": item.width || 0.08, "stroke-linecap": "round" });
    }
    default:
      return null; // a mark a newer server knows and this page does not
  }
}

function piece(item) {
  const group = node("g", { class: `piece seat-${item.seat ?? "none"}` });
  const [x, y] = item.at;
  const r = item.r || 0.44;
  const paint = { fill: colour(item.fill), stroke: colour(item.stroke), "stroke-width": item.width || 0.03 };
  if (item.shape === "square") group.append(node("rect", { x: x - r * 0.86, y: y - r * 0.86, width: r * 1.72, height: r * 1.72, rx: r * 0.18, ...paint }));
  else group.append(node("circle", { cx: x, cy: y, r, ...paint }));
  if (item.shape === "stone") group.append(node("circle", { cx: x - r * 0.3, cy: y - r * 0.3, r: r * 0.28, fill: "#ffffff", opacity: 0.22 }));
  if (item.shape === "ball") {
    group.append(node("path", { d: `M${x - r},${y}Q${x},${y - r * 0.5} ${x + r},${y}M${x - r},${y}Q${x},${y + r * 0.5} ${x + r},${y}`,
      fill: "none", stroke: colour(item.stroke), "stroke-width": (item.width || 0.03) * 0.8 }));
  }
  if (typeof item.facing === "number") {
    // Bump's bumper: a band on the rim towards the piece's facing (0 = east, clockwise as y goes down).
    const angle = (item.facing * Math.PI) / 180;
    const spread = Math.PI / 5;
    const at = (a, k) => [x + Math.cos(a) * r * k, y + Math.sin(a) * r * k];
    const [a1, a2] = [at(angle - spread, 1), at(angle + spread, 1)];
    const [b1, b2] = [at(angle + spread, 0.62), at(angle - spread, 0.62)];
    group.append(node("path", {
      d: `M${a1}A${r},${r} 0 0 1 ${a2}L${b1}A${r * 0.62},${r * 0.62} 0 0 0 ${b2}Z`,
      fill: colour(item.stroke), class: "bumper",
    }));
  }
  const inside = item.marker ? marker(item.marker, item.at, r * 0.42, item.label?.ink || "#ffffff") : null;
  if (inside) group.append(inside);
  if (item.label) group.append(text(item.at, item.label, { bold: true }));
  if (item.cell) group.dataset.cell = item.cell;
  return group;
}

export class BoardView {
  /** @param {SVGGElement} content the zoomed group */
  constructor(content) {
    this.content = content;
    this.layers = {};
    for (const name of LAYERS) {
      this.layers[name] = node("g", { class: `layer-${name}` });
      content.append(this.layers[name]);
    }
    this.cells = new Map(); // name → the scene's cell, for highlights
    this.labelSize = 0.3; // the largest cell name's font size, in board units
    this.labelChars = 2; // the longest cell name
    this.lastScale = 0;
  }

  /** Draw a scene; answers its extent {x, y, width, height} in board units. */
  draw(scene) {
    for (const layer of Object.values(this.layers)) layer.replaceChildren();
    this.cells.clear();
    const [x, y, width, height] = scene.viewbox;
    for (const area of scene.areas || []) {
      this.layers.areas.append(node("polygon", { points: points(area.points), fill: colour(area.fill), stroke: colour(area.stroke), "stroke-width": area.width }));
    }
    for (const line of scene.lines || []) {
      this.layers.lines.append(node("polyline", { points: points(line.points), fill: "none", stroke: colour(line.stroke), "stroke-width": line.width, "stroke-linecap": "round" }));
    }
    let size = 0;
    let chars = 1;
    for (const cell of scene.cells || []) {
      this.cells.set(cell.name, cell);
      const outline = node("polygon", { points: points(cell.shape), fill: colour(cell.fill), stroke: colour(cell.stroke), "stroke-width": cell.width, class: "cell" });
      outline.dataset.cell = cell.name;
      this.layers.cells.append(outline);
      if (cell.dot) {
        const dot = node("circle", { cx: cell.centre[0], cy: cell.centre[1], r: cell.dot.r, fill: colour(cell.dot.fill), stroke: colour(cell.dot.stroke), "stroke-width": cell.dot.width || 0.03 });
        dot.dataset.cell = cell.name;
        this.layers.cells.append(dot);
      }
      for (const label of [cell.label, cell.sublabel]) {
        if (!label) continue;
        this.layers.labels.append(text(cell.centre, label));
        size = Math.max(size, label.size);
        chars = Math.max(chars, [...label.text].length);
      }
    }
    for (const label of scene.labels || []) this.layers.areas.append(text(label.at, label, { bold: label.bold }));
    for (const item of scene.marks || []) {
      const made = mark(item);
      if (made) this.layers.marks.append(made);
    }
    for (const item of scene.pieces || []) this.layers.pieces.append(piece(item));
    this.labelSize = size || 0.3;
    this.labelChars = chars;
    this.zoomed(this.lastScale || 1);
    return { x, y, width, height };
  }

  /** Keep cell names readable at ``pixelsPerUnit``: enlarge them towards LABEL_MIN_PIXELS, or hide them. */
  zoomed(pixelsPerUnit) {
    this.lastScale = pixelsPerUnit;
    const natural = this.labelSize * pixelsPerUnit;
    const boost = natural >= LABEL_MIN_PIXELS ? 1 : LABEL_MIN_PIXELS / natural;
    const fits = this.labelChars * CHAR_WIDTH * this.labelSize * boost <= LABEL_ROOM;
    const layer = this.layers.labels;
    layer.style.display = fits ? "" : "none";
    layer.style.setProperty("--label-boost", boost.toFixed(3)); // each name grows around its own centre
    return fits;
  }

  /** Highlight cells: {cell name: "target" (a tap there does something) | "picked" (chosen, or tapped)}. */
  highlight(kinds) {
    this.layers.highlights.replaceChildren();
    for (const [name, kind] of Object.entries(kinds)) {
      const cell = this.cells.get(name);
      if (!cell) continue;
      const made = node("polygon", { points: points(cell.shape), class: `highlight ${kind}` });
      made.dataset.cell = name;
      this.layers.highlights.append(made);
    }
  }

  /** The cell a tapped element stands for (a piece, a label or a highlight on it), or null. */
  static cellOf(target) {
    for (let at = target; at && at.dataset !== undefined; at = at.parentNode) {
      if (at.dataset.cell) return at.dataset.cell;
    }
    return null;
  }
}
