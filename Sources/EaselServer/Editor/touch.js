// Touch, as the Cards app's gestures compose: one finger drags an element; two fingers
// resize it (its proportions kept, as the app's pinch keeps them) and turn it at the same
// time, and a finger lifted or added carries on from where the element is; a long press
// opens the element's menu; on the empty canvas one finger pans the view (a tap deselects,
// a double tap fits the canvas in the view, a long press offers Paste) and two zoom it
// about their middle. Outside the canvas is empty canvas: an element's part beyond the
// card's edge is not drawn, so a finger there does not take it (a hidden part of a large
// sticker would take every touch around the card, its outline off the screen). Each
// gesture is one undo step, sent when the last finger lifts; while it lasts the element
// moves on its own layer (layers.js). The page itself never scrolls or zooms under the
// canvas (`touch-action: none`). A handle, a text being typed and the drawing tools take
// their touches as they take a mouse's.

import { frameMap, round } from './geometry.js';

/** How long a finger rests, in milliseconds, before it is a long press. */
const LONG_PRESS_MS = 550;
/** How far a finger may wander, in screen pixels, and still be a tap or a long press. */
const SLOP = 8;
/** The smallest side a pinch leaves an element with, in canvas units. */
const MIN_SIDE = 10;
/** Two taps on the empty canvas within this many milliseconds are a double tap. */
const DOUBLE_TAP_MS = 350;

const middle = (points) => ({
  x: points.reduce((sum, p) => sum + p.x, 0) / points.length, y: points.reduce((sum, p) => sum + p.y, 0) / points.length,
});
const spread = ([a, b]) => Math.hypot(b.x - a.x, b.y - a.y);
const angle = ([a, b]) => (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;

export class Touch {
  constructor({ viewport, canvas, selection, layers, isBusy, onLongPress }) {
    Object.assign(this, { viewport, canvas, selection, layers, isBusy, onLongPress });
    this.pointers = new Map();
    this.gesture = null;
    viewport.addEventListener('pointerdown', (event) => this.down(event), { capture: true });
    viewport.addEventListener('pointermove', (event) => this.move(event), { capture: true });
    for (const type of ['pointerup', 'pointercancel']) {
      viewport.addEventListener(type, (event) => this.up(event), { capture: true });
    }
  }

  /** Whether the touch is for someone else: a handle, a field, a menu, a drawing tool. */
  passes(event) {
    return event.pointerType !== 'touch' || this.isBusy()
      || event.target.closest?.('.handle, .text-field, input, select, button, .element-menu');
  }

  down(event) {
    if (this.passes(event)) return;
    event.preventDefault();
    event.stopPropagation();
    try { this.viewport.setPointerCapture(event.pointerId); } catch { /* a synthetic touch */ }
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pointers.size === 1) {
      const box = this.onCanvas(event) ? event.target.closest?.('.box') : null;
      const index = box ? Number(box.dataset.index) : null;
      // A finger moves the one element it touches: one of several selected is selected alone.
      const wasSelected = index !== null && this.selection.isSelected(index);
      if (index !== null && !(wasSelected && this.selection.indices.length === 1)) this.selection.select(index);
      this.gesture = index === null
        ? { kind: 'view', moved: false }
        : { kind: 'element', index, moved: false, wasSelected,
          at: { clientX: event.clientX, clientY: event.clientY }, began: this.selection.gestureStart([index]) };
      if (index !== null) this.layers.begin([index]);
      const start = { x: event.clientX, y: event.clientY };
      this.longPress = setTimeout(() => {
        if (!this.gesture || this.gesture.moved) return;
        const pressed = this.gesture.kind === 'element' ? this.gesture.index : null;
        if (pressed !== null) this.layers.end(null);
        this.gesture = null;
        this.onLongPress(pressed, start);
      }, LONG_PRESS_MS);
    } else {
      clearTimeout(this.longPress);
      if (this.gesture) this.gesture.moved = true;
    }
    this.baseline();
  }

  /** Whether `event` is over the canvas (its drawn part), not the room around it. */
  onCanvas(event) {
    const box = this.canvas.stage.getBoundingClientRect();
    return event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
  }

  /** Starts measuring from where the fingers and the element are now (a finger came or went). */
  baseline() {
    const points = [...this.pointers.values()];
    if (!this.gesture || !points.length) return;
    // Two fingers pan from their middle as it is now, not from where one finger was.
    this.gesture.lastMiddle = middle(points);
    this.gesture.from = {
      middle: middle(points), spread: points.length > 1 ? spread(points) : null, angle: points.length > 1 ? angle(points) : null,
      frame: this.gesture.kind === 'element' ? { ...this.gesture.began.elements[this.gesture.index] } : null,
      scale: this.canvas.scale,
    };
  }

  move(event) {
    if (!this.pointers.has(event.pointerId)) return;
    event.preventDefault();
    event.stopPropagation();
    const last = this.pointers.get(event.pointerId);
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const gesture = this.gesture;
    if (!gesture) return;
    const points = [...this.pointers.values()], from = gesture.from, now = middle(points);
    if (!gesture.moved && Math.hypot(now.x - from.middle.x, now.y - from.middle.y) < SLOP) return;
    gesture.moved = true;
    clearTimeout(this.longPress);
    if (gesture.kind === 'view') {
      if (points.length > 1 && from.spread) this.canvas.zoomBy(spread(points) / from.spread * (from.scale / this.canvas.scale),
        { clientX: now.x, clientY: now.y }, { gesture: true });
      else this.canvas.panBy(event.clientX - last.x, event.clientY - last.y);
      if (points.length > 1) this.canvas.panBy(now.x - (gesture.lastMiddle?.x ?? now.x), now.y - (gesture.lastMiddle?.y ?? now.y));
      gesture.lastMiddle = now;
      return;
    }
    const element = gesture.began.elements[gesture.index], base = from.frame;
    const scale = points.length > 1 && from.spread ? spread(points) / from.spread : 1;
    const turn = points.length > 1 && from.angle !== null ? angle(points) - from.angle : 0;
    // Two fingers resize, never below MIN_SIDE; one only moves.
    const factor = points.length > 1 ? Math.max(scale, MIN_SIDE / Math.max(1, Math.min(...base.size))) : 1;
    element.at = [round(base.at[0] + (now.x - from.middle.x) / this.canvas.scale), round(base.at[1] + (now.y - from.middle.y) / this.canvas.scale)];
    // A finger that only moves the element leaves its size and angle as they are (rounding
    // them would change the document by a hair).
    element.size = factor === 1 ? [...base.size] : [round(base.size[0] * factor), round(base.size[1] * factor)];
    let degrees = (base.rotation || 0) + turn;
    degrees = ((degrees + 540) % 360) - 180;
    element.rotation = turn === 0 ? base.rotation : round(degrees);
    this.selection.placeBox(gesture.index, gesture.began);
    this.layers.transform(frameMap(gesture.began.originals.get(gesture.index), element));
  }

  up(event) {
    if (!this.pointers.has(event.pointerId)) return;
    event.preventDefault();
    event.stopPropagation();
    this.pointers.delete(event.pointerId);
    if (this.pointers.size) { this.baseline(); return; }
    clearTimeout(this.longPress);
    const gesture = this.gesture;
    this.gesture = null;
    if (!gesture) return;
    if (gesture.kind === 'view') {
      if (gesture.moved) return;
      const now = performance.now(), doubled = now - (this.lastTap ?? -Infinity) < DOUBLE_TAP_MS;
      this.lastTap = doubled ? null : now;
      if (doubled) this.canvas.setZoom('fit');
      else this.selection.select(null);
      return;
    }
    if (!gesture.moved && gesture.wasSelected) {
      // The selected element's box lies over the rest (for its handles): a tap where another
      // element is drawn over it selects that one, as a tap in the app takes the topmost.
      // (Only one above it: a thin line's box is wider than the line, and a tap on it is
      // not meant for the shape below.)
      const top = this.selection.topmostAt(this.canvas.canvasPoint(gesture.at));
      // (Places of one list: unless a reload came meanwhile, then the tap keeps its element.)
      if (top !== null && top > gesture.index && gesture.began.order === this.selection.order) {
        this.layers.end(null);
        this.selection.select(top);
        return;
      }
    }
    const element = gesture.began.elements[gesture.index], original = gesture.began.originals.get(gesture.index);
    const same = (a, b) => a[0] === b[0] && a[1] === b[1];
    const changed = !same(element.at, original.at) || !same(element.size, original.size)
      || (element.rotation || 0) !== (original.rotation || 0);
    if (!gesture.moved || !changed) { this.layers.end(null); return; }
    this.selection.endGesture(
      [{ verb: 'set', index: gesture.index, at: element.at, size: element.size, rotation: element.rotation }], gesture.began);
  }
}
