// The gestures on selected elements: drag to move (all the selected ones together), a
// corner handle to resize keeping the opposite corner and the aspect ratio (Shift frees
// it), an edge handle to move that side only, the round knob to rotate (Shift: 15° steps).
// Moves and resizes snap (snapping.js). While a gesture lasts, the elements move on their
// own layer (layers.js); when it ends, `selection.endGesture` gets its operations, one undo step.

import { bounds, frameMap, round, translation, union } from './geometry.js';
import { track } from './pointer.js';
import { drawGuides, snapBox, snapPoint, snapTargets } from './snapping.js';

const snappingOff = (event) => event.ctrlKey || event.metaKey;

/** Drags the selection; `clicked()` when the press ends without a drag. */
export function startMove(selection, event, { clicked }) {
  const { canvas, elements } = selection;
  const indices = [...selection.indices], began = selection.gestureStart(indices);
  const start = canvas.canvasPoint(event);
  const origins = indices.map((index) => [...elements[index].at]);
  const box = union(indices.map((index) => bounds(elements[index])));
  const targets = snapTargets(selection.canvasSize, elements, new Set(indices));
  let moved = false, by = [0, 0];
  track(selection.overlay, event, (moveEvent) => {
    const point = canvas.canvasPoint(moveEvent);
    let dx = point.x - start.x, dy = point.y - start.y;
    // A press that wanders less than 3 screen pixels is a click.
    if (!moved && Math.hypot(dx, dy) * canvas.scale < 3) return;
    if (!moved) { moved = true; selection.layers.begin(indices); }
    const snap = snapBox({ ...box, x: box.x + dx, y: box.y + dy }, targets, canvas.scale, snappingOff(moveEvent));
    dx += snap.dx;
    dy += snap.dy;
    by = [round(dx), round(dy)];
    indices.forEach((index, i) => {
      elements[index].at = [origins[i][0] + by[0], origins[i][1] + by[1]];
      selection.placeBox(index, began);
    });
    selection.layers.transform(translation(by[0], by[1]));
    drawGuides(selection.guides, snap.guides, selection.canvasSize, canvas.scale);
  }, () => {
    drawGuides(selection.guides, [], selection.canvasSize, canvas.scale);
    if (!moved) { clicked(); return; }
    if (by[0] === 0 && by[1] === 0) { selection.layers.end(null); return; }
    selection.endGesture(indices.map((index) => ({ verb: 'move', index, by })), began);
  });
}

const SIGNS = { nw: [-1, -1], ne: [1, -1], se: [1, 1], sw: [-1, 1], n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };

/** Resizes as a designer tool does: a corner keeps the opposite corner where it is and the
 * aspect ratio (Shift frees it; the app's pinch keeps it); an edge moves that side only. */
export function startResize(selection, event, index, handle) {
  const { canvas, elements } = selection;
  const began = selection.gestureStart([index]), element = elements[index], original = began.originals.get(index);
  const [w0, h0] = element.size, [cx0, cy0] = element.at;
  const angle = ((element.rotation || 0) * Math.PI) / 180, cos = Math.cos(angle), sin = Math.sin(angle);
  const [sx, sy] = SIGNS[handle];
  // The fixed point, in canvas units: the opposite corner, or the middle of the opposite edge.
  const toCanvas = (x, y) => [x * cos - y * sin, x * sin + y * cos];
  const [ax, ay] = toCanvas((-sx * w0) / 2, (-sy * h0) / 2);
  const anchor = [cx0 + ax, cy0 + ay];
  const targets = snapTargets(selection.canvasSize, elements, new Set([index]));
  // Snapping follows the canvas's axes: an unrotated frame's moving sides.
  const straight = Math.abs(Math.sin(angle)) < 1e-9;
  let changed = false;
  selection.layers.begin([index]);
  track(selection.overlay, event, (moveEvent) => {
    let point = canvas.canvasPoint(moveEvent);
    let snapped = { x: false, y: false }, guides = [];
    if (straight) {
      const snap = snapPoint(point, targets, canvas.scale, { off: snappingOff(moveEvent), axes: { x: !!sx, y: !!sy } });
      point = snap;
      ({ snapped, guides } = snap);
    }
    // The pointer from the fixed point, in the element's own axes.
    const dx = point.x - anchor[0], dy = point.y - anchor[1];
    const lx = dx * cos + dy * sin, ly = -dx * sin + dy * cos;
    let w = sx ? Math.max(1, sx * lx) : w0, h = sy ? Math.max(1, sy * ly) : h0;
    if (sx && sy && !moveEvent.shiftKey) {
      // The side that snapped decides; else the pointer's larger pull.
      const factor = snapped.x && !snapped.y ? w / w0 : snapped.y && !snapped.x ? h / h0 : Math.max(w / w0, h / h0);
      if (snapped.x !== snapped.y) guides = guides.filter((g) => (snapped.x ? g.x !== undefined : g.y !== undefined));
      [w, h] = [w0 * factor, h0 * factor];
    }
    const [ox, oy] = toCanvas((sx * w) / 2, (sy * h) / 2);
    element.size = [round(w), round(h)];
    element.at = [round(anchor[0] + ox), round(anchor[1] + oy)];
    changed = true;
    selection.placeBox(index, began);
    selection.layers.transform(frameMap(original, element));
    drawGuides(selection.guides, guides, selection.canvasSize, canvas.scale);
  }, () => {
    drawGuides(selection.guides, [], selection.canvasSize, canvas.scale);
    if (changed) selection.endGesture([{ verb: 'set', index, at: element.at, size: element.size }], began);
    else selection.layers.end(null);
  });
}

/** Turns the element about its centre by the knob (Shift: in 15° steps). */
export function startRotate(selection, event, index) {
  const { canvas, elements } = selection;
  const began = selection.gestureStart([index]), element = elements[index], original = began.originals.get(index);
  let changed = false;
  selection.layers.begin([index]);
  track(selection.overlay, event, (moveEvent) => {
    const point = canvas.canvasPoint(moveEvent);
    let degrees = (Math.atan2(point.y - element.at[1], point.x - element.at[0]) * 180) / Math.PI + 90;
    if (degrees > 180) degrees -= 360;
    if (moveEvent.shiftKey) degrees = Math.round(degrees / 15) * 15;
    element.rotation = round(degrees);
    changed = true;
    selection.placeBox(index, began);
    selection.layers.transform(frameMap(original, element));
  }, () => {
    if (changed) selection.endGesture([{ verb: 'set', index, rotation: element.rotation }], began);
    else selection.layers.end(null);
  });
}
