// The seat markers drawn inside discs (the pictures' own: render/hexdraw.py's MARKERS), as SVG, so colour is
// never the only cue; and the one way the page makes an SVG element.

const SVG = "http://www.w3.org/2000/svg";

export function node(tag, attributes = {}) {
  const made = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== "") made.setAttribute(key, String(value));
  }
  return made;
}

function star(cx, cy, r, count = 5, inner = 0.45) {
  const corners = [];
  for (let k = 0; k < count * 2; k += 1) {
    const angle = ((-90 + (k * 180) / count) * Math.PI) / 180;
    const radius = k % 2 === 0 ? r : r * inner;
    corners.push(`${cx + radius * Math.cos(angle)},${cy + radius * Math.sin(angle)}`);
  }
  return corners.join(" ");
}

/** One marker of radius ``r`` around ``at``; null for a name this page does not know. */
export function marker(name, at, r, ink) {
  const [cx, cy] = at;
  const fill = { fill: ink };
  switch (name) {
    case "dot":
      return node("circle", { cx, cy, r: r * 0.62, ...fill });
    case "square":
      return node("rect", { x: cx - r * 0.66, y: cy - r * 0.66, width: r * 1.32, height: r * 1.32, ...fill });
    case "triangle":
      return node("polygon", { points: `${cx},${cy - r} ${cx + r * 0.92},${cy + r * 0.62} ${cx - r * 0.92},${cy + r * 0.62}`, ...fill });
    case "diamond":
      return node("polygon", { points: `${cx},${cy - r} ${cx + r * 0.75},${cy} ${cx},${cy + r} ${cx - r * 0.75},${cy}`, ...fill });
    case "cross": {
      const t = r * 0.3;
      const a = r * 0.85;
      return node("path", { d: `M${cx - a},${cy - t}h${2 * a}v${2 * t}h${-2 * a}zM${cx - t},${cy - a}h${2 * t}v${2 * a}h${-2 * t}z`, ...fill });
    }
    case "star":
      return node("polygon", { points: star(cx, cy + r * 0.08, r * 1.08), ...fill });
    case "ring":
      return node("circle", { cx, cy, r: r * 0.8, fill: "none", stroke: ink, "stroke-width": r * 0.28 });
    case "bar":
      return node("rect", { x: cx - r * 0.85, y: cy - r * 0.3, width: r * 1.7, height: r * 0.6, ...fill });
    default:
      return null;
  }
}
