// The board as SVG, from the server's scene (docs/activity.md, "The scene"): areas, lines, cells with their
// names, labels, pieces and the last turn's marks, in board units (neighbouring cells 1 apart, y down). The
// page draws what it is sent and knows no rules; a tap is read back as the cell under it. Cell names are
// drawn at the scene's size when that is readable on the screen, enlarged up to what fits in a cell when
// it is not, and hidden when even that would not fit (zoom in to read them).
import { marker, node } from "./shapes.js";

const LABEL_MIN_PIXELS = 10; // the smallest text that reads on a phone
const LABEL_ROOM = 0.84; // of a cell's width (1 unit) a name may take
const CHAR_WIDTH = 0.62; // a character's width per unit of font size (DejaVu Sans digits and lower case)
const LAYERS = ["areas", "lines", "cells", "highlights", "labels", "marks", "pieces", "names"];
const NAME_MIN_PIXELS = 8; // a piece's name (fitted inside it) is hidden below this

const points = (list) => list.map(([x, y]) => `${x},${y}`).join(" ");
const colour = (value) => value || "none";

/** A text at ``at``: a cell's name or figure, a piece's name, a label of the board. ``fit`` (board units)
 * is the widest it may be drawn; ``halo`` an outline in another colour, so it reads on any background. */
function text(at, label, { bold = false, boost = false } = {}) {
  const chars = [...label.text].length || 1;
  const size = label.fit ? Math.min(label.size, label.fit / (chars * CHAR_WIDTH)) : label.size;
  const made = node("text", {
    x: at[0],
    y: at[1] + (label.dy || 0),
    fill: label.ink || "#000",
    "font-weight": bold || label.bold ? "bold" : undefined,
    "text-anchor": "middle",
    "dominant-baseline": "central",
    stroke: label.halo || undefined,
    "stroke-width": label.halo ? label.halo_width || size * 0.16 : undefined,
    "paint-order": label.halo ? "stroke" : undefined,
    "stroke-linejoin": label.halo ? "round" : undefined,
  });
  // A cell name grows with --label-boost (set on the labels' layer by zoomed); other text keeps its size.
  made.style.fontSize = boost ? `calc(var(--label-boost, 1) * ${size}px)` : `${size}px`;
  made.dataset.size = String(size);
  made.textContent = label.text;
  return made;
}

function arrowHead(from, to, head) {
  const [x1, y1] = from;
  const [x2, y2] = to;
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
  const base = [x2 - ux * head, y2 - uy * head];
  const side = [-uy * head * 0.6, ux * head * 0.6];
  return [to, [base[0] + side[0], base[1] + side[1]], [base[0] - side[0], base[1] - side[1]]];
}

/** A shape drawn twice when it has a halo: the halo wider underneath, then the shape. */
function haloed(item, make) {
  const group = node("g");
  if (item.halo) group.append(make(item.halo, (item.width || 0.06) + 2 * (item.halo_width || 0.02)));
  group.append(make(colour(item.stroke), item.width || 0.06));
  return group;
}

function arrow(item) {
  const line = item.points;
  const head = item.head || Math.max((item.width || 0.08) * 3.2, 0.18);
  const tip = arrowHead(line[line.length - 2], line[line.length - 1], head);
  const shaft = [...line.slice(0, -1), [(tip[1][0] + tip[2][0]) / 2, (tip[1][1] + tip[2][1]) / 2]];
  const group = haloed(item, (stroke, width) => {
    const part = node("g");
    part.append(
      node("polyline", { points: points(shaft), fill: "none", stroke, "stroke-width": width, "stroke-linecap": "round",
        "stroke-linejoin": "round", "stroke-dasharray": item.dashed ? `${width * 2} ${width * 1.5}` : undefined }),
      node("polygon", { points: points(tip), fill: stroke, stroke, "stroke-width": width - (item.width || 0.08), "stroke-linejoin": "round" }),
    );
    return part;
  });
  if (item.badge) {
    // the arrow's number (the order of a turn's moves, of a release's placements), on its middle
    const middle = line.length > 2 ? line[Math.floor(line.length / 2)] : [(line[0][0] + line[1][0]) / 2, (line[0][1] + line[1][1]) / 2];
    const r = Math.max(head * 0.55, 0.13);
    group.append(node("circle", { cx: middle[0], cy: middle[1], r, fill: colour(item.stroke), stroke: item.halo || "#ffffff", "stroke-width": r * 0.2 }));
    group.append(text(middle, { text: item.badge, size: r * 1.3, ink: "#ffffff", bold: true }));
  }
  return group;
}

function mark(item) {
  switch (item.kind) {
    case "arrow":
      return arrow(item);
    case "star":
      return marker("star", item.at, item.r, colour(item.fill || item.stroke));
    case "cross": {
      const r = item.r || 0.3;
      const [x, y] = item.at;
      const d = `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}`;
      return haloed(item, (stroke, width) => node("path", { d, stroke, "stroke-width": width, "stroke-linecap": "round", fill: "none" }));
    }
    default: {
      // ring, win, group, centre…: a circle around a place (a newer kind without `at` is skipped)
      if (!item.at) return null;
      const group = haloed(item, (stroke, width) => node("circle", { cx: item.at[0], cy: item.at[1], r: item.r, fill: "none", stroke, "stroke-width": width }));
      if (item.badge) group.append(text([item.at[0] + item.r * 0.75, item.at[1] - item.r * 0.75], { text: item.badge, size: 0.28, ink: colour(item.stroke), bold: true, halo: "#ffffff", halo_width: 0.05 }));
      return group;
    }
  }
}

/** Bump's bumper: a dark band on the rim over the edge the piece faces (±50°, to 0.56 of its radius), set
 * off by a light line, as the picture draws it. */
function bumper(x, y, r, facing, ink) {
  const theta = (facing * Math.PI) / 180;
  const spread = (50 * Math.PI) / 180;
  const sector = (depth) => {
    const at = (angle, k) => `${x + Math.cos(angle) * r * k},${y + Math.sin(angle) * r * k}`;
    const [a, b] = [theta - spread, theta + spread];
    return `M${at(a, 1)}A${r},${r} 0 0 1 ${at(b, 1)}L${at(b, depth)}A${r * depth},${r * depth} 0 0 0 ${at(a, depth)}Z`;
  };
  const group = node("g", { class: "bumper" });
  group.append(node("path", { d: sector(0.46), fill: "#ffffff" }), node("path", { d: sector(0.56), fill: ink }));
  return group;
}

function piece(item) {
  const group = node("g", { class: `piece seat-${item.seat ?? "none"}${item.twin ? " twin" : ""}` });
  const [x, y] = item.at;
  const r = item.r || 0.44;
  const paint = { fill: colour(item.fill), stroke: colour(item.stroke), "stroke-width": item.width || 0.03 };
  if (item.halo) group.append(node("circle", { cx: x, cy: y, r: r + (item.width || 0.03) * 1.5, fill: item.halo }));
  if (item.shape === "square") group.append(node("rect", { x: x - r * 0.86, y: y - r * 0.86, width: r * 1.72, height: r * 1.72, rx: r * 0.18, ...paint }));
  else group.append(node("circle", { cx: x, cy: y, r, ...paint }));
  if (item.shape === "stone") group.append(node("circle", { cx: x - r * 0.3, cy: y - r * 0.3, r: r * 0.28, fill: "#ffffff", opacity: 0.2 }));
  if (item.shape === "ball") {
    group.append(node("path", { d: `M${x - r},${y}Q${x},${y - r * 0.5} ${x + r},${y}M${x - r},${y}Q${x},${y + r * 0.5} ${x + r},${y}`,
      fill: "none", stroke: colour(item.stroke), "stroke-width": (item.width || 0.03) * 0.8 }));
  }
  if (typeof item.facing === "number") group.append(bumper(x, y, r, item.facing, item.bumper || colour(item.stroke)));
  const inside = item.marker ? marker(item.marker, item.at, r * 0.42, item.ink || item.label?.ink || "#ffffff") : null;
  if (inside) group.append(inside);
  if (item.cell) group.dataset.cell = item.cell;
  return group;
}

/** A line of the board: a polyline (``points``) or separate segments (``segments``: [[a, b], …]). */
function line(item) {
  const d = item.segments
    ? item.segments.map(([a, b]) => `M${a[0]},${a[1]}L${b[0]},${b[1]}`).join("")
    : `M${points(item.points).replaceAll(" ", "L")}`;
  return node("path", { d, fill: "none", stroke: colour(item.stroke), "stroke-width": item.width, "stroke-linecap": item.caps || "round", "stroke-linejoin": "round" });
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
    this.labelSize = 0.3; // the smallest cell name's font size, in board units
    this.labelSlack = 1; // how much the cell names may grow and still fit
    this.lastScale = 0;
    this.staticKey = null; // the key of the static layers drawn
    this.highlighted = "{}"; // the highlights drawn (their JSON)
    this.nameSize = 0; // the largest piece name's font size, in board units
  }

  /** Draw a scene; answers its extent {x, y, width, height} in board units. A scene without its static
   * layers (areas, lines, cells, labels: the same for every position of its ``key``) keeps those drawn. */
  draw(scene) {
    if (scene.cells || this.staticKey !== scene.key) this.drawStatic(scene);
    this.layers.marks.replaceChildren();
    this.layers.pieces.replaceChildren();
    for (const item of scene.marks || []) {
      const made = mark(item);
      if (made) this.layers.marks.append(made);
    }
    this.layers.names.replaceChildren();
    let nameSize = 0;
    for (const item of scene.pieces || []) {
      this.layers.pieces.append(piece(item));
      if (!item.label) continue;
      // a piece's name goes on a layer of its own, shown only when it can be read (see zoomed)
      const name = text(item.at, item.label, { bold: true });
      if (item.cell) name.dataset.cell = item.cell;
      this.layers.names.append(name);
      nameSize = Math.max(nameSize, Number(name.dataset.size));
    }
    this.nameSize = nameSize;
    this.zoomed(this.lastScale || 1);
    const [x, y, width, height] = scene.viewbox;
    return { x, y, width, height };
  }

  drawStatic(scene) {
    for (const name of ["areas", "lines", "cells", "labels", "highlights"]) this.layers[name].replaceChildren();
    this.highlighted = "{}";
    this.cells.clear();
    this.staticKey = scene.cells ? scene.key : null;
    for (const area of scene.areas || []) {
      this.layers.areas.append(node("polygon", { points: points(area.points), fill: colour(area.fill), stroke: colour(area.stroke), "stroke-width": area.width }));
    }
    for (const item of scene.lines || []) this.layers.lines.append(line(item));
    let smallest = Infinity; // the smallest name's font size: it must read
    let slack = Infinity; // how much every name may grow and still fit its cell (its ``fit``, else LABEL_ROOM)
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
        const drawn = text(cell.centre, label, { boost: true });
        this.layers.labels.append(drawn);
        const size = Number(drawn.dataset.size);
        smallest = Math.min(smallest, size);
        const room = (label.fit || LABEL_ROOM) / ([...label.text].length * CHAR_WIDTH * size);
        slack = Math.min(slack, Math.max(room, 1)); // drawn at its own size, a name fits as the picture has it
      }
    }
    for (const label of scene.labels || []) this.layers.areas.append(text(label.at, label, { bold: label.bold }));
    this.labelSize = Number.isFinite(smallest) ? smallest : 0.3;
    this.labelSlack = Number.isFinite(slack) ? slack : 1;
    this.zoomed(this.lastScale || 1);
  }

  /** Keep cell names readable at ``pixelsPerUnit``: enlarge them towards LABEL_MIN_PIXELS, or hide them. */
  zoomed(pixelsPerUnit) {
    this.lastScale = pixelsPerUnit;
    const natural = this.labelSize * pixelsPerUnit;
    const boost = natural >= LABEL_MIN_PIXELS ? 1 : LABEL_MIN_PIXELS / natural;
    const fits = boost <= this.labelSlack * 1.0001;
    const layer = this.layers.labels;
    layer.style.display = fits ? "" : "none";
    this.layers.names.style.display = (this.nameSize || 1) * pixelsPerUnit >= NAME_MIN_PIXELS ? "" : "none";
    layer.style.setProperty("--label-boost", boost.toFixed(3)); // each name grows around its own centre
    return fits;
  }

  /** Highlight cells: {cell name: "target" (a tap there does something) | "picked" (chosen, or tapped)}. */
  highlight(kinds) {
    const key = JSON.stringify(kinds);
    if (key === this.highlighted) return; // (asked again on every redraw of the footer)
    this.highlighted = key;
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
