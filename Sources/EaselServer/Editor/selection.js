// The interactive layer over the rendering: a box per element (in drawing order, the
// topmost last, the selected ones above them all) and the selection, one element or many.
// A press inside a selected frame grabs the selection; Alt-click, or a second click on the
// one selected element, reaches the element beneath; Shift-click adds or takes away; a
// drag from an empty place (on the canvas or around it) selects what its rectangle
// touches; Ctrl/Cmd-A selects all. The gestures themselves (move, resize, rotate, a line's
// ends, a path's points) are in gestures.js and points.js; arrow keys nudge (Shift: 10
// units), Delete removes, Escape deselects.

import { bounds, contains, intersects, union } from './geometry.js';
import { startMove, startResize, startRotate } from './gestures.js';
import { track } from './pointer.js';
import { lineHandles, pathHandles } from './points.js';

const RESIZE_HANDLES = ['nw', 'ne', 'se', 'sw', 'n', 'e', 's', 'w'];
/** The fewest screen pixels a box is across. */
const MIN_BOX = 8;
/** A finger's grip on a handle, in screen pixels (editor.css: a handle and its ::after). */
const GRIP = 44;
/** The most the rotation knob stands off its frame, in screen pixels (editor.css: 24, or 34
 * for a finger). */
const ROTATE_REACH = 34;
/** Two clicks on one element within this many milliseconds are a double click. */
const DOUBLE_CLICK_MS = 350;

export class Selection {
  /** `holdGestures()`: whether gestures that end now wait (`releaseGestures`), as they do
   * while a photo is uploaded, which may move the elements they name. */
  constructor({ canvas, overlay, viewport, guides, layers, onGesture, onGestureLost, onSelect, onEditText, holdGestures }) {
    Object.assign(this, { canvas, overlay, viewport, guides, layers, onGesture, onGestureLost, onSelect, onEditText, holdGestures });
    this.heldGestures = [];
    this.elements = [];
    /** Counts the descriptions since which elements may be elsewhere in the drawing order. */
    this.order = 0;
    this.indices = [];
    this.nudge = null;
    this.canvasSize = [1, 1];
    viewport.addEventListener('keydown', (event) => this.key(event));
    // Any press (a drag of the selection, a handle, another click) ends the wait for a
    // second click: the element beneath is not selected in the middle of a gesture.
    viewport.addEventListener('pointerdown', () => clearTimeout(this.cycleTimer), { capture: true });
    // A press on nothing (the canvas between elements, or around the canvas) starts a marquee.
    viewport.addEventListener('pointerdown', (event) => {
      // A finger on the empty canvas pans the view (touch.js); a mouse or a pen draws a marquee.
      if (event.button !== 0 || this.tool?.active || event.pointerType === 'touch') return;
      if (event.target === overlay || event.target === viewport || event.target === canvas.stage) this.startMarquee(event);
    });
  }

  /** `keepsPlaces`: the page's own save of edits that neither add, remove nor reorder
   * elements (each element is where it was in the drawing order). */
  setElements(elements, canvasSize, { changedElsewhere = false, keepsPlaces = false } = {}) {
    // Gestures under way find their elements again unless every one is known to be where it was.
    if (!keepsPlaces) this.order += 1;
    // Elements are known by their place in the drawing order: when elements came or went (a
    // delete, an undo of an add) a kept index would name whichever element slid into it,
    // so nothing stays selected, as in the app. An edit of this page's own keeps it. A
    // change made elsewhere, an undo or a redo may have put others in their places (an
    // order undone): the selection stays only on elements still what they were but for
    // their frames.
    const sameElements = elements.length === this.elements.length
      && (!changedElsewhere || this.indices.every((index) => sameApartFromFrame(this.elements[index], elements[index])));
    this.elements = elements.map((element) => ({ ...element }));
    if (canvasSize) this.canvasSize = canvasSize;
    if (!sameElements && this.indices.length > 0) {
      this.select(null);
      return;
    }
    this.draw();
  }

  /** Selects the elements at `indices` (one index, a list, or null for none). */
  select(indices) {
    // A nudge of the elements selected so far is theirs: saved before others are selected.
    if (this.nudge) this.endNudge();
    const list = indices === null || indices === undefined ? [] : Array.isArray(indices) ? indices : [indices];
    this.indices = [...new Set(list)].filter((i) => i >= 0 && i < this.elements.length).sort((a, b) => a - b);
    this.draw();
    this.onSelect(this.indices);
    // The layers of a gesture on this selection, fetched while the user has not started one.
    clearTimeout(this.prepareTimer);
    this.prepareTimer = setTimeout(() => this.layers.prepare(this.indices), 120);
  }

  selectAll() {
    this.select(this.elements.map((_, index) => index));
  }

  /** The one selected element (a copy of its description with its index), or null. */
  get selected() {
    return this.indices.length === 1 ? this.elements[this.indices[0]] : null;
  }

  /** The selected elements' descriptions. */
  get selectedElements() {
    return this.indices.map((index) => this.elements[index]);
  }

  isSelected(index) {
    return this.indices.includes(index);
  }

  /** The box around the selection on the canvas, or null. */
  get selectionBounds() {
    return union(this.selectedElements.map(bounds));
  }

  draw() {
    const scale = this.canvas.scale;
    // Keyboard focus stays in the overlay across redraws, on a selected element's box
    // (focusing another box would select that one); with nothing selected (Escape, a
    // delete) it goes to the view, which takes the keys, not to the box of the same index.
    const inOverlay = this.overlay.contains(document.activeElement);
    const focused = inOverlay ? this.indices[0] : undefined;
    this.overlay.replaceChildren();
    this.elements.forEach((element, index) => {
      const box = document.createElement('div');
      const selected = this.isSelected(index);
      box.className = 'box' + (selected ? ' selected' : '');
      box.dataset.index = index;
      box.dataset.kind = element.kind;
      box.setAttribute('aria-label', `${element.kind} ${index}${element.text ? `: ${element.text}` : ''}`);
      box.setAttribute('role', 'button');
      box.setAttribute('aria-pressed', String(selected));
      // Tab reaches every element; focusing one selects it.
      box.tabIndex = 0;
      box.addEventListener('focus', () => { if (!this.isSelected(index)) this.select(index); });
      place(box, element, scale);
      box.addEventListener('pointerdown', (event) => this.press(event, index));
      if (selected && this.indices.length === 1) this.addHandles(box, element, index);
      this.overlay.append(box);
    });
    if (focused !== undefined) this.overlay.querySelector(`.box[data-index="${focused}"]`)?.focus({ preventScroll: true });
    else if (inOverlay) this.viewport.focus({ preventScroll: true });
  }

  /** A single selection's handles: a line's two ends; a frame's corners, edges and rotation
   * knob (and a path's points). */
  addHandles(box, element, index) {
    if (element.kind === 'line') {
      lineHandles(this, element, index);
      return;
    }
    for (const kind of RESIZE_HANDLES) {
      if (roomFor(kind, box)) box.append(handle(kind, (event) => startResize(this, event, index, kind)));
    }
    const knob = handle('rotate', (event) => startRotate(this, event, index));
    // Above the frame, unless that is off the top of what the view shows: then below it.
    const stageTop = this.canvas.stage.getBoundingClientRect().top - this.viewport.getBoundingClientRect().top;
    if (stageTop + parseFloat(box.style.top) < 2 * ROTATE_REACH) knob.classList.add('below');
    box.append(knob);
    if (element.kind === 'path' && element.path) pathHandles(this, element, index);
  }

  /** What a gesture on the elements at `indices` begins on: the elements it changes as it
   * goes (`elements`), and what they were at its start, to find them again should a change
   * made elsewhere move them in the drawing order before it ends. */
  gestureStart(indices) {
    return { order: this.order, elements: this.elements, originals: new Map(indices.map((i) => [i, { ...this.elements[i] }])) };
  }

  /** Moves the box of the element a gesture (begun at `start`) is changing, at `index` when
   * it began, to the frame the gesture gives it. */
  placeBox(index, start = null) {
    const [now] = start ? this.placesNow([index], start) ?? [] : [index];
    const box = now === undefined ? null : this.overlay.querySelector(`.box[data-index="${now}"]`);
    if (box) place(box, (start?.elements ?? this.elements)[index], this.canvas.scale);
  }

  /** Where the elements a gesture began on at `indices` are now: a change made elsewhere
   * during the gesture may have moved them in the drawing order. Null when one of them is
   * no longer there as it was (changed or removed). */
  placesNow(indices, start) {
    if (start.order === this.order) return indices;
    if (start.found?.order !== this.order) start.found = { order: this.order, places: new Map() };
    const known = start.found.places;
    const places = indices.map((index) => {
      if (!known.has(index)) known.set(index, findAgain(start.originals.get(index), index, this.elements));
      return known.get(index);
    });
    return places.includes(null) ? null : places;
  }

  /** A gesture begun at `start` ends with `operations` (each naming an element by its
   * `index` then): they are saved for the elements where they are now, or, when one of them
   * was changed or removed elsewhere meanwhile, not at all (`onGestureLost`). `layers`:
   * whether the gesture began layers of its own (a nudge does not), ended if it is dropped. */
  endGesture(operations, start, { layers = true } = {}) {
    if (this.holdGestures?.()) {
      this.heldGestures.push(() => this.endGesture(operations, start, { layers }));
      return;
    }
    const places = this.placesNow(operations.map((operation) => operation.index), start);
    if (!places) {
      if (layers) this.layers.end(null);
      this.draw();
      this.onGestureLost?.();
      return;
    }
    this.onGesture(operations.map((operation, i) => ({ ...operation, index: places[i] })));
  }

  /** Ends the gestures held (`holdGestures`), in the order they ended, each for its
   * elements where they now are. */
  releaseGestures() {
    for (const end of this.heldGestures.splice(0)) end();
  }

  /** Holds `end`, an edit made while gestures are held, in its turn among them: it runs
   * when they are released (`releaseGestures`). */
  holdEdit(end) {
    this.heldGestures.push(end);
  }

  /** Drops the gestures held: another document is opened, and they were made on the last. */
  forgetHeldGestures() {
    this.heldGestures = [];
  }

  /** The elements under `point` (canvas units), the topmost first. */
  under(point) {
    const under = [];
    for (let i = this.elements.length - 1; i >= 0; i--) if (contains(this.elements[i], point)) under.push(i);
    return under;
  }

  /** The topmost element under `point` in drawing order, or null. */
  topmostAt(point) {
    return this.under(point)[0] ?? null;
  }

  /** The element under `point` after `index`, going down the stack and round again: how an
   * Alt-click, or a click on the selected element, reaches what lies beneath it. */
  nextUnder(point, index) {
    const under = this.under(point);
    const position = under.indexOf(index);
    return under.length ? under[(position + 1) % under.length] : index;
  }

  /** A press on an element's box. Its part beyond the canvas's edge is not drawn: a press
   * there is a press on the room around the canvas (a marquee), as it looks. */
  press(event, index) {
    if (event.button !== 0 || this.tool?.active) return;
    event.stopPropagation();
    const point = this.canvas.canvasPoint(event);
    const [width, height] = this.canvasSize;
    if (point.x < 0 || point.y < 0 || point.x > width || point.y > height) {
      this.startMarquee(event);
      return;
    }
    // Whether this element was the selection alone before this press: only then does a
    // click on it reach the one beneath (a first click selects it, and stays).
    const wasAlone = this.indices.length === 1 && this.indices[0] === index;
    if (event.shiftKey) {
      const next = this.isSelected(index) ? this.indices.filter((i) => i !== index) : [...this.indices, index];
      this.select(next);
      if (!this.isSelected(index)) return;
    } else if (event.altKey) {
      this.select(this.nextUnder(point, index));
      index = this.indices[0];
    } else if (!this.isSelected(index)) {
      this.select(index);
    }
    this.overlay.querySelector(`.box[data-index="${index}"]`)?.focus({ preventScroll: true });
    startMove(this, event, {
      // A click that did not drag. Two on one element in quick succession are a double
      // click: a text is then edited in place. One on the sole selected element reaches the
      // one beneath, once a second click can no longer come; one on one of several selected
      // elements selects it alone.
      clicked: () => {
        const now = performance.now(), last = this.lastClick;
        this.lastClick = { index, time: now };
        clearTimeout(this.cycleTimer);
        if (last && last.index === index && now - last.time < DOUBLE_CLICK_MS) {
          this.lastClick = null;
          if (this.elements[index]?.kind === 'text') this.onEditText(index);
          return;
        }
        if (event.shiftKey || event.altKey) return;
        if (wasAlone) {
          this.cycleTimer = setTimeout(() => {
            const next = this.nextUnder(point, index);
            if (next !== index && this.isSelected(index)) this.select(next);
          }, DOUBLE_CLICK_MS);
        } else if (this.indices.length > 1) {
          this.select(index);
        }
      },
    });
  }

  /** A drag from an empty place: the elements whose bounds its rectangle touches are
   * selected (added to the selection with Shift). A click without a drag deselects. */
  startMarquee(event) {
    event.preventDefault();
    this.viewport.focus({ preventScroll: true });
    const start = this.canvas.canvasPoint(event);
    const adding = event.shiftKey ? [...this.indices] : [];
    const marquee = document.createElement('div');
    marquee.className = 'marquee';
    let dragged = false;
    track(this.viewport, event, (moveEvent) => {
      const point = this.canvas.canvasPoint(moveEvent);
      const rect = {
        x: Math.min(start.x, point.x), y: Math.min(start.y, point.y),
        width: Math.abs(point.x - start.x), height: Math.abs(point.y - start.y),
      };
      if (!dragged && rect.width * this.canvas.scale < 3 && rect.height * this.canvas.scale < 3) return;
      if (!dragged) { dragged = true; this.overlay.append(marquee); }
      const scale = this.canvas.scale;
      Object.assign(marquee.style, {
        left: `${rect.x * scale}px`, top: `${rect.y * scale}px`, width: `${rect.width * scale}px`, height: `${rect.height * scale}px`,
      });
      this.marqueeRect = rect;
    }, () => {
      marquee.remove();
      if (!dragged) { this.select(adding.length ? adding : null); return; }
      const touched = this.elements.map((element, index) => (intersects(bounds(element), this.marqueeRect) ? index : -1))
        .filter((index) => index >= 0);
      this.select([...adding, ...touched]);
    });
  }

  key(event) {
    if (event.target.matches?.('input, select, textarea, [contenteditable]')) return;
    if (!this.indices.length || event.ctrlKey || event.metaKey || event.altKey) return;
    const step = event.shiftKey ? 10 : 1;
    const arrows = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (arrows[event.key]) {
      event.preventDefault();
      const [dx, dy] = arrows[event.key];
      // Key repeats coalesce into one gesture, saved when the keys rest; it begins on the
      // elements as they were before the first press moved them.
      this.nudge = this.nudge || { indices: [...this.indices], by: [0, 0], start: this.gestureStart(this.indices) };
      for (const index of this.indices) {
        const element = this.elements[index];
        element.at = [element.at[0] + dx, element.at[1] + dy];
      }
      this.draw();
      this.nudge.by = [this.nudge.by[0] + dx, this.nudge.by[1] + dy];
      clearTimeout(this.nudgeTimer);
      this.nudgeTimer = setTimeout(() => this.endNudge(), 400);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      const indices = this.indices;
      this.indices = [];
      this.onGesture([{ verb: 'remove', indices }]);
    } else if (event.key === 'Escape') {
      this.select(null);
    } else if (event.key === 'Enter' && this.selected?.kind === 'text') {
      event.preventDefault();
      this.onEditText(this.indices[0]);
    }
  }

  /** Sends a nudge still waiting for the keys to rest: before any other edit, an undo, or
   * leaving the document, so that it lands where and when it was made. */
  endNudge() {
    clearTimeout(this.nudgeTimer);
    if (!this.nudge) return;
    const { indices, by, start } = this.nudge;
    this.nudge = null;
    this.endGesture(indices.map((index) => ({ verb: 'move', index, by })), start, { layers: false });
  }
}

/** Whether two descriptions are of one element, moved, resized or turned at most (a
 * line's ends are where its frame puts them). */
export function sameApartFromFrame(a, b) {
  return Boolean(a && b) && contentOf(a) === contentOf(b);
}

/** Where `element`, last seen at `index`, is in `elements`: the place of the one element
 * still what it was (its frame may have changed), preferring one on the same frame, then
 * the same place; null when none is, or several are and none of them is where it was. */
export function findAgain(element, index, elements) {
  const same = placesByContent(elements).get(contentOf(element)) ?? [];
  const frame = ({ at, size, rotation }) => JSON.stringify([at, size, rotation]);
  const framed = same.filter((place) => frame(elements[place]) === frame(element));
  if (framed.includes(index)) return index;
  if (framed.length === 1) return framed[0];
  if (same.includes(index)) return index;
  return same.length === 1 ? same[0] : null;
}

/** An element's description but for its frame (what `sameApartFromFrame` compares). */
function contentOf({ at, size, rotation, from, to, index, ...others }) {
  return JSON.stringify(others);
}

/** The places of each content in `elements`, made once per list (a drag of a thousand
 * elements after a change elsewhere looks each up, not through the whole list). */
const contentPlaces = new WeakMap();
function placesByContent(elements) {
  let places = contentPlaces.get(elements);
  if (!places) {
    places = new Map();
    elements.forEach((element, place) => {
      const key = contentOf(element), list = places.get(key);
      if (list) list.push(place); else places.set(key, [place]);
    });
    contentPlaces.set(elements, places);
  }
  return places;
}

/** Places a box on an element's frame (stage pixels), at least a few pixels across so that a
 * straight line's box can be pressed. */
export function place(box, element, scale) {
  const [cx, cy] = element.at;
  const w = Math.max(element.size[0] * scale, MIN_BOX), h = Math.max(element.size[1] * scale, MIN_BOX);
  box.style.left = `${cx * scale - w / 2}px`;
  box.style.top = `${cy * scale - h / 2}px`;
  box.style.width = `${w}px`;
  box.style.height = `${h}px`;
  box.style.transform = `rotate(${element.rotation || 0}deg)`;
}

/** Whether a box has room for a resize handle of `kind`. A finger's grip on a handle is
 * 44 px, half of it inside the box: on a box under two grips tall, the top and bottom
 * handles would cover its middle (a finger meaning to move a one-line text would stretch
 * it), and likewise across; corners go when neither side has room. A finger resizes by
 * pinching as well; a mouse's handles are small and always there. */
function roomFor(kind, box) {
  if (!matchMedia('(pointer: coarse)').matches) return true;
  const tall = parseFloat(box.style.height) >= 2 * GRIP, wide = parseFloat(box.style.width) >= 2 * GRIP;
  if (kind === 'n' || kind === 's') return tall;
  if (kind === 'e' || kind === 'w') return wide;
  return tall || wide;
}

/** A handle of `kind` on a box; `start(event)` when it is pressed. */
export function handle(kind, start) {
  const element = document.createElement('div');
  element.className = `handle ${kind}`;
  element.dataset.handle = kind;
  const positions = {
    nw: ['0%', '0%'], ne: ['100%', '0%'], se: ['100%', '100%'], sw: ['0%', '100%'],
    n: ['50%', '0%'], e: ['100%', '50%'], s: ['50%', '100%'], w: ['0%', '50%'], rotate: ['50%', '-24px'],
  };
  if (positions[kind]) [element.style.left, element.style.top] = positions[kind];
  element.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    start(event);
  });
  return element;
}
