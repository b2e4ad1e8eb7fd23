// The interactive layer over the rendering: a box per element (in drawing order, the
// topmost last, the selected one above them all), selection (Alt-click or a click on the
// selected element reaches the one beneath), and the gestures — drag to move, corner handles to resize
// keeping the opposite corner and the aspect ratio (Shift frees it), edge handles to move one side, the round handle to rotate (Shift: 15° steps), arrow
// keys to nudge (Shift: 10 units), Delete to remove. During a gesture the element's pixels
// follow the pointer at display rate (a piece of the current rendering); when it ends,
// `onGesture` receives the operations, and the server's rendering replaces the preview.

import { settings, GRID } from './settings.js';

const round = (value) => Math.round(value * 100) / 100;

export class Selection {
  constructor({ canvas, overlay, viewport, onGesture, onSelect }) {
    this.canvas = canvas;
    this.overlay = overlay;
    this.viewport = viewport;
    this.onGesture = onGesture;
    this.onSelect = onSelect;
    this.elements = [];
    this.index = null;
    this.nudge = null;
    viewport.addEventListener('keydown', (event) => this.key(event));
    overlay.addEventListener('pointerdown', (event) => {
      if (event.target === overlay) this.select(null);
    });
  }

  setElements(elements) {
    this.elements = elements.map((element) => ({ ...element }));
    this.overlay.parentElement.querySelector('.ghosts')?.replaceChildren();
    if (this.index !== null && this.index >= this.elements.length) this.index = null;
    this.draw();
  }

  select(index) {
    this.index = index;
    this.draw();
    this.onSelect(index);
  }

  get selected() {
    return this.index === null ? null : this.elements[this.index];
  }

  draw() {
    const scale = this.canvas.scale;
    // Keyboard focus stays in the overlay across redraws, on the selected element's box
    // (focusing another box would select that one).
    const focused = this.overlay.contains(document.activeElement) ? (this.index ?? document.activeElement.dataset.index) : undefined;
    this.overlay.replaceChildren();
    this.elements.forEach((element, index) => {
      const box = document.createElement('div');
      box.className = 'box' + (index === this.index ? ' selected' : '');
      box.dataset.index = index;
      box.setAttribute('aria-label', `${element.kind} ${index}${element.text ? `: ${element.text}` : ''}`);
      box.setAttribute('role', 'button');
      box.setAttribute('aria-pressed', String(index === this.index));
      // Tab reaches every element; focusing one selects it.
      box.tabIndex = 0;
      box.addEventListener('focus', () => { if (this.index !== index) this.select(index); });
      this.place(box, element, scale);
      box.addEventListener('pointerdown', (event) => this.startMove(event, index));
      if (index === this.index) {
        for (const handle of ['nw', 'ne', 'se', 'sw', 'n', 'e', 's', 'w']) {
          box.append(this.handle(handle, (event) => this.startResize(event, handle)));
        }
        box.append(this.handle('rotate', (event) => this.startRotate(event)));
      }
      this.overlay.append(box);
    });
    if (focused !== undefined) this.overlay.querySelector(`.box[data-index="${focused}"]`)?.focus({ preventScroll: true });
  }

  place(box, element, scale) {
    const [cx, cy] = element.at, [w, h] = element.size;
    box.style.left = `${(cx - w / 2) * scale}px`;
    box.style.top = `${(cy - h / 2) * scale}px`;
    box.style.width = `${w * scale}px`;
    box.style.height = `${h * scale}px`;
    box.style.transform = `rotate(${element.rotation || 0}deg)`;
  }

  handle(kind, start) {
    const handle = document.createElement('div');
    handle.className = `handle ${kind}`;
    handle.dataset.handle = kind;
    const positions = {
      nw: ['0%', '0%'], ne: ['100%', '0%'], se: ['100%', '100%'], sw: ['0%', '100%'],
      n: ['50%', '0%'], e: ['100%', '50%'], s: ['50%', '100%'], w: ['0%', '50%'], rotate: ['50%', '-24px'],
    };
    [handle.style.left, handle.style.top] = positions[kind];
    handle.addEventListener('pointerdown', (event) => {
      event.stopPropagation();
      start(event);
    });
    return handle;
  }

  /** Follows the pointer until it is released; `move(point, event)` on each move, `end()` after.
   * The overlay captures the pointer: it stays in the page while the boxes are redrawn. */
  track(event, move, end) {
    event.preventDefault();
    const target = this.overlay;
    try { target.setPointerCapture(event.pointerId); } catch { /* a synthetic event: moves still reach the overlay */ }
    const onMove = (moveEvent) => move(this.canvas.canvasPoint(moveEvent), moveEvent);
    const onUp = () => {
      target.removeEventListener('pointermove', onMove);
      target.removeEventListener('pointerup', onUp);
      target.removeEventListener('pointercancel', onUp);
      end();
    };
    target.addEventListener('pointermove', onMove);
    target.addEventListener('pointerup', onUp);
    target.addEventListener('pointercancel', onUp);
  }

  /** A piece of the current rendering that moves with the element while it is dragged. */
  ghost(element) {
    const scale = this.canvas.scale;
    const ghost = document.createElement('div');
    ghost.className = 'ghost-piece';
    const [cx, cy] = element.at, [w, h] = element.size;
    const angle = ((element.rotation || 0) * Math.PI) / 180;
    const bw = Math.abs(w * Math.cos(angle)) + Math.abs(h * Math.sin(angle));
    const bh = Math.abs(w * Math.sin(angle)) + Math.abs(h * Math.cos(angle));
    const left = (cx - bw / 2) * scale, top = (cy - bh / 2) * scale;
    Object.assign(ghost.style, {
      position: 'absolute', left: `${left}px`, top: `${top}px`, width: `${bw * scale}px`, height: `${bh * scale}px`,
      backgroundImage: `url("${this.canvas.image.src}")`,
      backgroundSize: `${this.canvas.size.width * scale}px ${this.canvas.size.height * scale}px`,
      backgroundPosition: `${-left}px ${-top}px`, pointerEvents: 'none', opacity: '0.85',
    });
    this.ghostLayer().append(ghost);
    return ghost;
  }

  /** Where drag previews go: clipped to the canvas, under the boxes. */
  ghostLayer() {
    let layer = this.overlay.parentElement.querySelector('.ghosts');
    if (!layer) {
      layer = document.createElement('div');
      layer.className = 'ghosts';
      this.overlay.before(layer);
    }
    return layer;
  }

  /** The element under `point` after `index`, going down the stack and round again: how an
   * Alt-click, or a click on the selected element, reaches what lies beneath it. */
  nextUnder(point, index) {
    const under = [];
    for (let i = this.elements.length - 1; i >= 0; i--) {
      const { at: [cx, cy], size: [w, h], rotation = 0 } = this.elements[i];
      const angle = (-rotation * Math.PI) / 180, dx = point.x - cx, dy = point.y - cy;
      const x = dx * Math.cos(angle) - dy * Math.sin(angle), y = dx * Math.sin(angle) + dy * Math.cos(angle);
      if (Math.abs(x) <= w / 2 && Math.abs(y) <= h / 2) under.push(i);
    }
    const position = under.indexOf(index);
    return under.length ? under[(position + 1) % under.length] : index;
  }

  startMove(event, index) {
    if (event.button !== 0) return;
    event.stopPropagation();
    // The selected element's box is on top: a press inside its frame grabs it. A click that
    // does not drag it (or an Alt-click anywhere) goes to the next element beneath.
    const wasSelected = this.index === index;
    const pressed = this.canvas.canvasPoint(event);
    if (event.altKey) index = this.nextUnder(pressed, index);
    if (this.index !== index) this.select(index);
    this.overlay.querySelector(`.box[data-index="${index}"]`)?.focus({ preventScroll: true });
    const element = this.elements[index];
    const start = this.canvas.canvasPoint(event);
    const origin = [...element.at];
    const box = this.overlay.querySelector(`.box[data-index="${index}"]`);
    let ghost = null, ghostLeft = 0, ghostTop = 0;
    let moved = false;
    this.track(event, (point) => {
      let x = origin[0] + point.x - start.x, y = origin[1] + point.y - start.y;
      if (settings.snap) [x, y] = [Math.round(x / GRID) * GRID, Math.round(y / GRID) * GRID];
      moved = moved || x !== origin[0] || y !== origin[1];
      if (!ghost && moved) {
        ghost = this.ghost({ ...element, at: origin });
        ghostLeft = parseFloat(ghost.style.left);
        ghostTop = parseFloat(ghost.style.top);
      }
      if (!ghost) return;
      element.at = [x, y];
      this.place(box, element, this.canvas.scale);
      ghost.style.left = `${ghostLeft + (x - origin[0]) * this.canvas.scale}px`;
      ghost.style.top = `${ghostTop + (y - origin[1]) * this.canvas.scale}px`;
    }, () => {
      if (!moved) {
        if (wasSelected && !event.altKey) {
          const next = this.nextUnder(pressed, index);
          if (next !== index) this.select(next);
        }
        return;
      }
      const by = [round(element.at[0] - origin[0]), round(element.at[1] - origin[1])];
      this.onGesture([{ verb: 'move', index, by }], { ghost });
    });
  }

  /** Resizes as a designer tool does: a corner keeps the opposite corner where it is and
   * the aspect ratio (Shift frees it; the app's pinch keeps it); an edge moves that side only. */
  startResize(event, handle) {
    const index = this.index, element = this.elements[index];
    const [w0, h0] = element.size, [cx0, cy0] = element.at;
    const angle = ((element.rotation || 0) * Math.PI) / 180, cos = Math.cos(angle), sin = Math.sin(angle);
    const signs = { nw: [-1, -1], ne: [1, -1], se: [1, 1], sw: [-1, 1], n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };
    const [sx, sy] = signs[handle];
    // The fixed point, in canvas units: the opposite corner, or the middle of the opposite edge.
    const toCanvas = (x, y) => [x * cos - y * sin, x * sin + y * cos];
    const [ax, ay] = toCanvas((-sx * w0) / 2, (-sy * h0) / 2);
    const anchor = [cx0 + ax, cy0 + ay];
    const box = this.overlay.querySelector(`.box[data-index="${index}"]`);
    let changed = false;
    this.track(event, (point, moveEvent) => {
      // The pointer from the fixed point, in the element's own axes.
      const dx = point.x - anchor[0], dy = point.y - anchor[1];
      const lx = dx * cos + dy * sin, ly = -dx * sin + dy * cos;
      let w = sx ? Math.max(1, sx * lx) : w0, h = sy ? Math.max(1, sy * ly) : h0;
      if (sx && sy && !moveEvent.shiftKey) {
        const factor = Math.max(w / w0, h / h0);
        [w, h] = [w0 * factor, h0 * factor];
      }
      const [ox, oy] = toCanvas((sx * w) / 2, (sy * h) / 2);
      element.size = [round(w), round(h)];
      element.at = [round(anchor[0] + ox), round(anchor[1] + oy)];
      changed = true;
      this.place(box, element, this.canvas.scale);
    }, () => {
      if (changed) this.onGesture([{ verb: 'set', index, at: element.at, size: element.size }]);
    });
  }

  startRotate(event) {
    const index = this.index, element = this.elements[index];
    const box = this.overlay.querySelector(`.box[data-index="${index}"]`);
    let changed = false;
    this.track(event, (point, moveEvent) => {
      let degrees = (Math.atan2(point.y - element.at[1], point.x - element.at[0]) * 180) / Math.PI + 90;
      if (degrees > 180) degrees -= 360;
      if (moveEvent.shiftKey) degrees = Math.round(degrees / 15) * 15;
      element.rotation = round(degrees);
      changed = true;
      this.place(box, element, this.canvas.scale);
    }, () => {
      if (changed) this.onGesture([{ verb: 'set', index, rotation: element.rotation }]);
    });
  }

  key(event) {
    if (this.index === null || event.ctrlKey || event.metaKey || event.altKey) return;
    const step = event.shiftKey ? 10 : 1;
    const arrows = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (arrows[event.key]) {
      event.preventDefault();
      const [dx, dy] = arrows[event.key], element = this.selected;
      element.at = [element.at[0] + dx, element.at[1] + dy];
      this.draw();
      // Key repeats coalesce into one gesture, saved when the keys rest.
      this.nudge = this.nudge || { index: this.index, by: [0, 0] };
      this.nudge.by = [this.nudge.by[0] + dx, this.nudge.by[1] + dy];
      clearTimeout(this.nudgeTimer);
      this.nudgeTimer = setTimeout(() => this.endNudge(), 400);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      const index = this.index;
      this.index = null;
      this.onGesture([{ verb: 'remove', index }]);
    } else if (event.key === 'Escape') {
      this.select(null);
    }
  }

  /** Sends a nudge still waiting for the keys to rest (the page is being left). */
  endNudge() {
    if (!this.nudge) return;
    const { index, by } = this.nudge;
    this.nudge = null;
    this.onGesture([{ verb: 'move', index, by }]);
  }
}
