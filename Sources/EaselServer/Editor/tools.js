// The tools that put new things on the canvas. In a drawing: rectangle, rounded rectangle,
// ellipse, star, polygon, line and arrow, each drawn by dragging its frame (Shift: a square
// frame; a click gives a default size there); a pen for paths (click for a corner, drag
// for a curve, click the first point to close it, Enter or a double click to end it open,
// Escape to end or drop it); and text, typed where it is clicked. On a card: a text typed
// at the middle of the view, and photos. A tool puts one thing down, then Select is back.

import { round } from './geometry.js';
import { framedOutline, outlinePreview } from './points.js';
import { track } from './pointer.js';
import { drawGuides, snapPoint, snapTargets } from './snapping.js';

/** The tools of each kind of document: name, label, shortcut key. A card's are the app's
 * toolbar (Photos, Frames, Stickers, Text); Photos, Frames and Stickers act at once (a
 * picker), the others are chosen and then used on the canvas. */
const TOOLS = {
  drawing: [
    ['select', 'Select', 'v'], ['rectangle', 'Rectangle', 'r'], ['rounded-rectangle', 'Rounded rectangle', 'u'],
    ['ellipse', 'Ellipse', 'o'], ['star', 'Star', 's'], ['polygon', 'Polygon', 'g'], ['line', 'Line', 'l'],
    ['arrow', 'Arrow', 'a'], ['pen', 'Pen', 'p'], ['text', 'Text', 't'], ['stickers', 'Stickers', 'k'],
  ],
  card: [['select', 'Select', 'v'], ['photos', 'Photos', 'i'], ['frames', 'Frames', 'f'], ['stickers', 'Stickers', 'k'],
    ['text', 'Text', 't']],
};
/** The tools that act at once rather than being chosen. */
const ACTIONS = new Set(['photos', 'frames', 'stickers']);
/** The labels a screen reader reads for the tools that add something. */
const SPOKEN = { select: 'Select', photos: 'Add photos', frames: 'Frames', stickers: 'Add a sticker' };
/** The app's toolbar icons (its SF Symbols: photo, square.on.circle, heart.circle, textformat), drawn here. */
const ICONS = {
  photos: '<rect x="3" y="5" width="18" height="14" rx="2"/><circle cx="9" cy="10" r="1.8"/><path d="M3 17l5-5 4 4 3-3 6 6"/>',
  frames: '<circle cx="9" cy="9" r="6"/><rect x="10" y="10" width="11" height="11" rx="1"/>',
  stickers: '<circle cx="12" cy="12" r="9.5"/><path d="M12 17l-4.2-4.3a2.5 2.5 0 0 1 4.2-3.1 2.5 2.5 0 0 1 4.2 3.1z"/>',
  text: '<path d="M3 18l5-13h1.5l5 13M5 13.5h7.5"/><path d="M15.5 12.5a3 3 0 1 1 0 .1M21 10v8"/>',
};

/** How close, in screen pixels, a press must be to the pen's first point to close the path. */
const CLOSE_PULL = 8;

export class Tools {
  constructor({ container, canvas, stage, overlay, guides, selection, textEditor, onAdd, onAction, compact }) {
    Object.assign(this, { container, canvas, stage, overlay, guides, selection, textEditor, onAdd, onAction, compact });
    this.name = 'select';
    this.pen = null;
    selection.tool = this;
    // While a tool other than Select is chosen, a press anywhere on the canvas is the tool's.
    stage.addEventListener('pointerdown', (event) => {
      if (!this.active || event.button !== 0 || event.target.closest('.text-field')) return;
      event.stopPropagation();
      if (this.name === 'pen') this.penPress(event);
      else if (this.name === 'text') this.placeText(event);
      else this.drawFrame(event);
    }, { capture: true });
  }

  /** Whether a tool other than Select is chosen. */
  get active() {
    return this.name !== 'select';
  }

  /** The buttons for a document of `type` ("card" or "drawing"). */
  build(type) {
    this.type = type;
    this.container.replaceChildren();
    for (const [name, label, key] of TOOLS[type] || TOOLS.drawing) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'tool';
      button.dataset.tool = name;
      if (ICONS[name] && type === 'card') {
        button.classList.add('with-icon');
        button.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true">${ICONS[name]}</svg>`;
        const text = document.createElement('span');
        text.className = 'tool-label';
        text.textContent = label;
        button.append(text);
      } else {
        button.textContent = label;
      }
      button.title = `${label} (${key.toUpperCase()})`;
      button.setAttribute('aria-label', SPOKEN[name] || `Add ${label.toLowerCase()}`);
      button.addEventListener('click', () => this.choose(name));
      this.container.append(button);
    }
    this.choose('select');
    this.update();
  }

  /** Frames apply to the selected image: the button is there only when one is selected. */
  update() {
    const frames = this.container.querySelector('button[data-tool="frames"]');
    if (frames) frames.disabled = this.selection.selected?.kind !== 'image';
  }

  /** Chooses a tool. A picker's tool opens its picker; on a card, Text starts a new text at
   * once (there is nothing to drag): typed in place, or in the Text sheet on a phone. */
  choose(name) {
    if (this.pen) this.finishPen(false);
    if (ACTIONS.has(name) || (name === 'text' && this.type === 'card' && this.compact())) {
      this.choose('select');
      this.onAction(name);
      return;
    }
    if (name === 'text' && this.type === 'card') {
      this.choose('select');
      this.textEditor.create(this.visibleCentre(), { fontSize: 200 });
      return;
    }
    this.name = name;
    this.stage.classList.toggle('drawing-tool', this.active);
    for (const button of this.container.querySelectorAll('button')) {
      button.setAttribute('aria-pressed', String(button.dataset.tool === name));
    }
  }

  /** Chooses the tool whose shortcut is `key`; true when there is one. */
  shortcut(key) {
    const tool = (TOOLS[this.type] || []).find(([, , k]) => k === key);
    if (tool) this.choose(tool[0]);
    return !!tool;
  }

  /** The middle of what the viewport shows, in canvas units, kept on the canvas. */
  visibleCentre() {
    const area = this.canvas.visibleRect();
    return [round(area.x + area.width / 2), round(area.y + area.height / 2)];
  }

  /** A shape's frame, a line or an arrow, by dragging from corner to corner (or end to end). */
  drawFrame(event) {
    const { canvas } = this;
    const targets = snapTargets(this.selection.canvasSize, this.selection.elements, new Set());
    const snap = (e) => snapPoint(canvas.canvasPoint(e), targets, canvas.scale, { off: e.ctrlKey || e.metaKey });
    const start = snap(event);
    const kind = this.name;
    const band = document.createElement('div');
    band.className = 'rubber-band';
    this.overlay.append(band);
    let end = start, dragged = false;
    track(this.stage, event, (moveEvent) => {
      const point = snap(moveEvent);
      end = { x: point.x, y: point.y };
      if (moveEvent.shiftKey && kind !== 'line' && kind !== 'arrow') {
        const side = Math.max(Math.abs(end.x - start.x), Math.abs(end.y - start.y));
        end = { x: start.x + Math.sign(end.x - start.x || 1) * side, y: start.y + Math.sign(end.y - start.y || 1) * side };
      }
      dragged = dragged || Math.hypot(end.x - start.x, end.y - start.y) * canvas.scale >= 4;
      const scale = canvas.scale;
      if (kind === 'line' || kind === 'arrow') {
        const length = Math.hypot(end.x - start.x, end.y - start.y);
        Object.assign(band.style, {
          left: `${start.x * scale}px`, top: `${start.y * scale}px`, width: `${length * scale}px`, height: '0px',
          transformOrigin: '0 0', transform: `rotate(${Math.atan2(end.y - start.y, end.x - start.x)}rad)`,
        });
      } else {
        Object.assign(band.style, {
          left: `${Math.min(start.x, end.x) * scale}px`, top: `${Math.min(start.y, end.y) * scale}px`,
          width: `${Math.abs(end.x - start.x) * scale}px`, height: `${Math.abs(end.y - start.y) * scale}px`,
        });
      }
      drawGuides(this.guides, point.guides, this.selection.canvasSize, scale);
    }, () => {
      band.remove();
      drawGuides(this.guides, [], this.selection.canvasSize, canvas.scale);
      this.choose('select');
      const [width] = this.selection.canvasSize;
      const a = [round(start.x), round(start.y)];
      if (kind === 'line' || kind === 'arrow') {
        const b = dragged ? [round(end.x), round(end.y)] : [round(start.x + width / 4), a[1]];
        const operation = { verb: 'add', kind: 'line', from: a, to: b };
        if (kind === 'arrow') Object.assign(operation, { arrowheads: 'end', strokeWidth: 4 });
        this.onAdd([operation]);
        return;
      }
      const size = dragged
        ? [round(Math.abs(end.x - start.x)), round(Math.abs(end.y - start.y))] : [round(width / 4), round(width / 4)];
      const at = dragged ? [round((start.x + end.x) / 2), round((start.y + end.y) / 2)] : a;
      this.onAdd([{ verb: 'add', kind, at, size }]);
    });
  }

  /** The text tool: a new text typed where the canvas was clicked. */
  placeText(event) {
    event.preventDefault();
    const point = this.canvas.canvasPoint(event);
    this.choose('select');
    this.textEditor.create([point.x, point.y], { fontSize: this.type === 'card' ? 200 : 48 });
  }

  // MARK: The pen

  /** A press with the pen: a corner, or (dragged) a curve point; on the first point it closes. */
  penPress(event) {
    const { canvas } = this;
    const point = canvas.canvasPoint(event);
    const pen = (this.pen ||= { segments: [], out: null, last: null });
    const first = pen.segments[0]?.points[0];
    if (first && pen.segments.length > 1 && Math.hypot(point.x - first.x, point.y - first.y) * canvas.scale <= CLOSE_PULL) {
      this.addPenSegment(first, null);
      pen.segments.push({ command: 'Z', points: [] });
      this.finishPen(true, { closed: true });
      return;
    }
    // A second press on the last point, straight after it, is a double click: the path ends there.
    const now = performance.now();
    if (pen.last && now - pen.last.time < 350 && Math.hypot(point.x - pen.last.x, point.y - pen.last.y) * canvas.scale < 4) {
      this.finishPen(true);
      return;
    }
    pen.last = { ...point, time: now };
    let handle = null;
    track(this.stage, event, (moveEvent) => {
      const at = canvas.canvasPoint(moveEvent);
      if (Math.hypot(at.x - point.x, at.y - point.y) * canvas.scale >= 3) handle = at;
      this.drawPen(handle ? [{ command: 'M', points: [point] }, { command: 'L', points: [handle] }] : []);
    }, () => {
      // A drag makes a smooth point: the handle out of it where the pointer went, the one
      // into it mirrored.
      const into = handle ? { x: 2 * point.x - handle.x, y: 2 * point.y - handle.y } : null;
      this.addPenSegment(point, into);
      pen.out = handle;
      this.drawPen();
    });
  }

  addPenSegment(point, into) {
    const pen = this.pen;
    if (!pen.segments.length) {
      pen.segments.push({ command: 'M', points: [point] });
    } else if (pen.out || into) {
      const previous = pen.segments[pen.segments.length - 1].points.at(-1);
      pen.segments.push({ command: 'C', points: [pen.out || previous, into || point, point] });
    } else {
      pen.segments.push({ command: 'L', points: [point] });
    }
  }

  drawPen(extra = []) {
    outlinePreview(this.guides, this.pen?.segments || [], this.canvas.scale, 'pen-preview');
    outlinePreview(this.guides, extra, this.canvas.scale, 'pen-handle');
  }

  /** Ends the pen's path: added when it has two points or more (`keep`), else dropped. */
  finishPen(keep, { closed = false } = {}) {
    const pen = this.pen;
    this.pen = null;
    this.guides.querySelectorAll('.pen-preview, .pen-handle').forEach((node) => node.remove());
    if (this.name === 'pen') this.choose('select');
    const points = pen?.segments.filter((s) => s.command !== 'Z').length || 0;
    if (!keep || points < 2) return;
    const framed = framedOutline(pen.segments);
    const style = closed ? {} : { fill: 'none', stroke: '#1D1D1F', strokeWidth: 4 };
    this.onAdd([{ verb: 'add', kind: 'path', value: framed.path, at: framed.at, size: framed.size, ...style }]);
  }

  /** Keys for the pen: Enter ends the path open, Escape ends it (or drops a single point). */
  key(event) {
    if (!this.pen) return false;
    if (event.key === 'Enter') { this.finishPen(true); return true; }
    if (event.key === 'Escape') { this.finishPen(true); return true; }
    return false;
  }
}
