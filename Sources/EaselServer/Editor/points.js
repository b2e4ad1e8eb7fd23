// Points you can drag: a line's two ends, and the points of a path (its outline, stored as
// M/L/Q/C/Z commands in the unit square of its frame). A dragged line end snaps as a
// corner does; a dragged path point takes its curve handles along. The new outline is
// drawn in the page while the point moves; on release the path gets a frame around its
// new points and the outline in that frame, in one edit.

import { apply, multiply, rotation, round, scaling, translation } from './geometry.js';
import { track } from './pointer.js';
import { drawGuides, snapPoint, snapTargets } from './snapping.js';

const SVG = 'http://www.w3.org/2000/svg';

/** Parses M/L/Q/C/Z commands into segments: {command, points: [{x, y}...]}. */
export function parseOutline(text) {
  const tokens = text.match(/[MLQCZmlqcz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g) || [];
  const counts = { M: 1, L: 1, Q: 2, C: 3, Z: 0 };
  const segments = [];
  for (let i = 0; i < tokens.length;) {
    const command = tokens[i++].toUpperCase();
    const points = [];
    for (let n = 0; n < counts[command]; n++) points.push({ x: Number(tokens[i++]), y: Number(tokens[i++]) });
    segments.push({ command, points });
  }
  return segments;
}

/** Segments as commands, numbers rounded to 4 places. */
export function formatOutline(segments) {
  const number = (v) => String(Math.round(v * 1e4) / 1e4);
  return segments.map(({ command, points }) => [command, ...points.flatMap((p) => [number(p.x), number(p.y)])].join(' '))
    .join(' ');
}

/** The map from a frame's unit square to the canvas. */
function unitToCanvas({ at: [cx, cy], size: [w, h], rotation: degrees = 0 }) {
  let map = translation(-0.5, -0.5);
  map = multiply(scaling(w, h), map);
  map = multiply(rotation(degrees), map);
  return multiply(translation(cx, cy), map);
}

/** A path through `segments` (canvas units), in a frame turned by `degrees` that fits its
 * points: {at, size, path} as a set or an add takes them. */
export function framedOutline(segments, degrees = 0) {
  const turn = rotation(-degrees);
  const local = segments.map(({ command, points }) => ({ command, points: points.map((p) => apply(turn, p)) }));
  const all = local.flatMap((segment) => segment.points);
  const xs = all.map((p) => p.x), ys = all.map((p) => p.y);
  const minX = Math.min(...xs), minY = Math.min(...ys);
  const width = Math.max(1, Math.max(...xs) - minX), height = Math.max(1, Math.max(...ys) - minY);
  const unit = local.map(({ command, points }) => ({
    command, points: points.map((p) => ({ x: (p.x - minX) / width, y: (p.y - minY) / height })),
  }));
  const centre = apply(rotation(degrees), { x: minX + width / 2, y: minY + height / 2 });
  return { at: [round(centre.x), round(centre.y)], size: [round(width), round(height)], path: formatOutline(unit) };
}

/** An SVG path of `segments` (canvas units) at `scale`, in the guides layer. */
export function outlinePreview(layer, segments, scale, className = 'outline-preview') {
  let path = layer.querySelector(`.${className}`);
  if (!path) {
    path = document.createElementNS(SVG, 'path');
    path.setAttribute('class', className);
    layer.append(path);
  }
  path.setAttribute('d', segments.map(({ command, points }) =>
    [command, ...points.flatMap((p) => [p.x * scale, p.y * scale])].join(' ')).join(' '));
  return path;
}

function pointHandle(selection, point, kind, label, start) {
  const handle = document.createElement('div');
  handle.className = `handle point ${kind}`;
  handle.dataset.handle = kind;
  handle.setAttribute('aria-label', label);
  handle.style.left = `${point.x * selection.canvas.scale}px`;
  handle.style.top = `${point.y * selection.canvas.scale}px`;
  handle.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    start(event, handle);
  });
  selection.overlay.append(handle);
  return handle;
}

/** The similarity (turn, scale, shift) taking the segment a0-a1 onto b0-b1: how a line's
 * layer follows a dragged end. */
function segmentMap(a0, a1, b0, b1) {
  const va = { x: a1.x - a0.x, y: a1.y - a0.y }, vb = { x: b1.x - b0.x, y: b1.y - b0.y };
  const la = Math.hypot(va.x, va.y), lb = Math.hypot(vb.x, vb.y);
  if (!la) return translation(b0.x - a0.x, b0.y - a0.y);
  const degrees = ((Math.atan2(vb.y, vb.x) - Math.atan2(va.y, va.x)) * 180) / Math.PI;
  let map = translation(-a0.x, -a0.y);
  map = multiply(scaling(lb / la, lb / la), map);
  map = multiply(rotation(degrees), map);
  return multiply(translation(b0.x, b0.y), map);
}

/** A selected line's two ends, each dragged to a new place (snapping), one edit each. */
export function lineHandles(selection, element, index) {
  const ends = { from: { x: element.from[0], y: element.from[1] }, to: { x: element.to[0], y: element.to[1] } };
  for (const key of ['from', 'to']) {
    pointHandle(selection, ends[key], `end ${key}`, key === 'from' ? "The line's start" : "The line's end", (event, handle) => {
      const { canvas } = selection, began = selection.gestureStart([index]);
      const targets = snapTargets(selection.canvasSize, selection.elements, new Set([index]));
      const other = key === 'from' ? ends.to : ends.from;
      let moved = null;
      // (The ends are those of the rendering on screen: the layer needs no correction.)
      selection.layers.begin([index], { fromRendered: true });
      track(selection.overlay, event, (moveEvent) => {
        const snap = snapPoint(canvas.canvasPoint(moveEvent), targets, canvas.scale, { off: moveEvent.ctrlKey || moveEvent.metaKey });
        moved = { x: round(snap.x), y: round(snap.y) };
        handle.style.left = `${moved.x * canvas.scale}px`;
        handle.style.top = `${moved.y * canvas.scale}px`;
        selection.layers.transform(key === 'from' ? segmentMap(ends.from, other, moved, other) : segmentMap(other, ends.to, other, moved));
        drawGuides(selection.guides, snap.guides, selection.canvasSize, canvas.scale);
      }, () => {
        drawGuides(selection.guides, [], selection.canvasSize, canvas.scale);
        if (!moved) { selection.layers.end(null); return; }
        selection.endGesture([{ verb: 'set', index, [key]: [moved.x, moved.y] }], began);
      });
    });
  }
}

/** A selected path's points: each anchor dragged (with its curve handles) to a new place. */
export function pathHandles(selection, element, index) {
  const toCanvas = unitToCanvas(element);
  const segments = parseOutline(element.path).map(({ command, points }) => ({ command, points: points.map((p) => apply(toCanvas, p)) }));
  segments.forEach((segment, s) => {
    if (!segment.points.length) return;
    const anchor = segment.points.length - 1;
    pointHandle(selection, segment.points[anchor], 'path-point', `Point ${s + 1} of the path`, (event, handle) => {
      const { canvas } = selection, began = selection.gestureStart([index]);
      const start = canvas.canvasPoint(event);
      const original = segments.map(({ command, points }) => ({ command, points: points.map((p) => ({ ...p })) }));
      // The curve handles that go with the point: the one before it, in its own segment,
      // and the first of the next segment's, when that is a cubic curve.
      const attached = [[s, anchor]];
      if (segment.command === 'C') attached.push([s, 1]);
      if (segments[s + 1]?.command === 'C') attached.push([s + 1, 0]);
      let edited = null;
      selection.layers.begin([index], { alone: false });
      track(selection.overlay, event, (moveEvent) => {
        const point = canvas.canvasPoint(moveEvent);
        const dx = point.x - start.x, dy = point.y - start.y;
        edited = original.map(({ command, points }) => ({ command, points: points.map((p) => ({ ...p })) }));
        for (const [i, j] of attached) {
          edited[i].points[j] = { x: original[i].points[j].x + dx, y: original[i].points[j].y + dy };
        }
        handle.style.left = `${edited[s].points[anchor].x * canvas.scale}px`;
        handle.style.top = `${edited[s].points[anchor].y * canvas.scale}px`;
        outlinePreview(selection.guides, edited, canvas.scale);
      }, () => {
        selection.guides.querySelector('.outline-preview')?.remove();
        if (!edited) { selection.layers.end(null); return; }
        const framed = framedOutline(edited, element.rotation || 0);
        selection.endGesture([{ verb: 'set', index, ...framed }], began);
      });
    });
  });
}
