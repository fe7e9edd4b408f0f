// Pinch-zoom and pan of the board: pointer events (one finger or the mouse pans, two fingers pinch), the wheel
// zooms around the cursor on a desktop. The board is an SVG whose content sits in one <g>; the view is a
// scale and an offset applied to that group, in screen pixels, so the fit is exact at any size. A press
// that moves less than TAP_SLOP pixels is a tap (the caller's onTap), never a pan.

const TAP_SLOP = 8; // px a finger may wander and still tap
const MIN_ZOOM = 1; // the whole board fitting the screen
const MAX_ZOOM = 8;

export class ZoomView {
  /**
   * @param {SVGSVGElement} svg the board's element, sized by CSS
   * @param {SVGGElement} content the group that holds everything drawn
   * @param {{onTap: (target: Element, event: PointerEvent) => void, onZoom: (pixelsPerUnit: number) => void}} hooks
   */
  constructor(svg, content, hooks) {
    this.svg = svg;
    this.content = content;
    this.hooks = hooks;
    this.box = { x: 0, y: 0, width: 1, height: 1 }; // the board's extent, in its own units
    this.zoom = 1; // times the fit
    this.offset = { x: 0, y: 0 }; // screen px of the board's origin
    this.pointers = new Map(); // pointerId → {x, y, startX, startY, target}
    this.pinch = null;
    svg.addEventListener("pointerdown", (e) => this.down(e));
    svg.addEventListener("pointermove", (e) => this.move(e));
    svg.addEventListener("pointerup", (e) => this.up(e, true));
    svg.addEventListener("pointercancel", (e) => this.up(e, false));
    svg.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    new ResizeObserver(() => this.fit(false)).observe(svg);
  }

  /** The board's extent changed (a new position of another size): fit it, keeping the zoom if asked. */
  setBox(box, keepView) {
    const same = box.x === this.box.x && box.y === this.box.y && box.width === this.box.width && box.height === this.box.height;
    this.box = box;
    this.fit(!(keepView && same));
  }

  size() {
    const rect = this.svg.getBoundingClientRect();
    return { width: Math.max(rect.width, 1), height: Math.max(rect.height, 1) };
  }

  /** Pixels per board unit with the whole board fitting the screen. */
  fitScale() {
    const { width, height } = this.size();
    return Math.min(width / this.box.width, height / this.box.height);
  }

  /** Pixels per board unit now. */
  scale() {
    return this.fitScale() * this.zoom;
  }

  fit(reset) {
    if (reset) this.zoom = 1;
    this.clamp();
    this.apply();
  }

  /** Keep the board on the screen: centred along an axis where it is smaller than the screen. */
  clamp() {
    const { width, height } = this.size();
    const scale = this.scale();
    const boardWidth = this.box.width * scale;
    const boardHeight = this.box.height * scale;
    const along = (offset, board, screen, origin) => {
      if (board <= screen) return (screen - board) / 2 - origin * scale;
      return Math.min(-origin * scale, Math.max(screen - board - origin * scale, offset));
    };
    this.offset.x = along(this.offset.x, boardWidth, width, this.box.x);
    this.offset.y = along(this.offset.y, boardHeight, height, this.box.y);
  }

  apply() {
    const scale = this.scale();
    this.content.setAttribute("transform", `translate(${this.offset.x} ${this.offset.y}) scale(${scale})`);
    this.hooks.onZoom(scale);
  }

  /** Zoom by ``factor`` keeping the board point under (x, y) (screen px in the svg) where it is. */
  zoomAt(factor, x, y) {
    const before = this.scale();
    const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, this.zoom * factor));
    if (zoom === this.zoom) return;
    const pointX = (x - this.offset.x) / before;
    const pointY = (y - this.offset.y) / before;
    this.zoom = zoom;
    const after = this.scale();
    this.offset.x = x - pointX * after;
    this.offset.y = y - pointY * after;
    this.clamp();
    this.apply();
  }

  local(event) {
    const rect = this.svg.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  down(event) {
    const at = this.local(event);
    this.pointers.set(event.pointerId, { ...at, startX: at.x, startY: at.y, target: event.target, moved: false });
    this.svg.setPointerCapture?.(event.pointerId);
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      a.moved = b.moved = true; // two fingers never tap
      this.pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    }
  }

  move(event) {
    const pointer = this.pointers.get(event.pointerId);
    if (!pointer) return;
    const at = this.local(event);
    if (this.pinch && this.pointers.size >= 2) {
      pointer.x = at.x;
      pointer.y = at.y;
      const [a, b] = [...this.pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const middle = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      this.offset.x += middle.x - this.pinch.x; // the fingers' middle pans
      this.offset.y += middle.y - this.pinch.y;
      this.zoomAt(distance / this.pinch.distance, middle.x, middle.y);
      this.clamp();
      this.apply();
      this.pinch = { distance, ...middle };
      return;
    }
    if (!pointer.moved && Math.hypot(at.x - pointer.startX, at.y - pointer.startY) < TAP_SLOP) return;
    pointer.moved = true;
    this.offset.x += at.x - pointer.x;
    this.offset.y += at.y - pointer.y;
    pointer.x = at.x;
    pointer.y = at.y;
    this.clamp();
    this.apply();
  }

  up(event, completed) {
    const pointer = this.pointers.get(event.pointerId);
    this.pointers.delete(event.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    if (pointer && completed && !pointer.moved && this.pointers.size === 0) this.hooks.onTap(pointer.target, event);
  }

  wheel(event) {
    event.preventDefault();
    const at = this.local(event);
    const steps = event.deltaMode === 1 ? event.deltaY / 3 : event.deltaY / 100; // lines or pixels
    this.zoomAt(Math.pow(1.2, -steps), at.x, at.y);
  }
}
