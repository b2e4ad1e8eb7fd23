// Snapping while moving and resizing: to the canvas's edges and centre lines, to the edges
// and centres of the elements not being moved, and (with "Snap to grid") to the grid. A
// snap pulls within a few screen pixels; a guide line is drawn across the canvas where an
// edge or centre snapped. Holding Ctrl (Cmd on a Mac) while dragging snaps to nothing.

import { bounds } from './geometry.js';
import { settings, GRID } from './settings.js';

/** How near, in screen pixels, a snap pulls. */
const PULL = 6;

/** The lines on the canvas things snap to, from the canvas and every element not in `moving`. */
export function snapTargets(canvasSize, elements, moving) {
  const [width, height] = canvasSize;
  const xs = [0, width / 2, width], ys = [0, height / 2, height];
  elements.forEach((element, index) => {
    if (moving.has(index)) return;
    const box = bounds(element);
    xs.push(box.x, box.x + box.width / 2, box.x + box.width);
    ys.push(box.y, box.y + box.height / 2, box.y + box.height);
  });
  return { xs, ys };
}

/** The nearest target to any of `values` within `pull`: the shift to it and the line. */
function nearest(values, targets, pull) {
  let best = null;
  for (const value of values) {
    for (const target of targets) {
      const shift = target - value;
      if (Math.abs(shift) <= pull && (!best || Math.abs(shift) < Math.abs(best.shift))) best = { shift, line: target };
    }
    if (settings.snap) {
      const shift = Math.round(value / GRID) * GRID - value;
      if (Math.abs(shift) <= pull && (!best || Math.abs(shift) < Math.abs(best.shift))) best = { shift, line: null };
    }
  }
  return best;
}

/** Snaps a moving box ({x, y, width, height}): its edges or centre to the nearest targets.
 * Returns the shift to add, {dx, dy}, and the guides to draw. */
export function snapBox(box, targets, scale, off = false) {
  if (off) return { dx: 0, dy: 0, guides: [] };
  const pull = PULL / scale;
  const x = nearest([box.x, box.x + box.width / 2, box.x + box.width], targets.xs, pull);
  const y = nearest([box.y, box.y + box.height / 2, box.y + box.height], targets.ys, pull);
  const guides = [];
  if (x && x.line !== null) guides.push({ x: x.line });
  if (y && y.line !== null) guides.push({ y: y.line });
  return { dx: x ? x.shift : 0, dy: y ? y.shift : 0, guides };
}

/** Snaps one point (a corner or edge being dragged, a line's end, a pen point); `axes`
 * says which of x and y may move. Returns the point and the guides. */
export function snapPoint(point, targets, scale, { off = false, axes = { x: true, y: true } } = {}) {
  if (off) return { x: point.x, y: point.y, guides: [], snapped: { x: false, y: false } };
  const pull = PULL / scale;
  const x = axes.x ? nearest([point.x], targets.xs, pull) : null;
  const y = axes.y ? nearest([point.y], targets.ys, pull) : null;
  const guides = [];
  if (x && x.line !== null) guides.push({ x: x.line });
  if (y && y.line !== null) guides.push({ y: y.line });
  return { x: point.x + (x ? x.shift : 0), y: point.y + (y ? y.shift : 0), guides, snapped: { x: !!x, y: !!y } };
}

/** Draws `guides` across the canvas in the SVG layer `layer` (canvas units, scaled). */
export function drawGuides(layer, guides, canvasSize, scale) {
  const [width, height] = canvasSize;
  layer.replaceChildren(...guides.map((guide) => {
    const line = document.createElementNS('http://www.w3.org/2000/svg', 'line');
    const [x1, y1, x2, y2] = guide.x !== undefined
      ? [guide.x, 0, guide.x, height] : [0, guide.y, width, guide.y];
    line.setAttribute('x1', x1 * scale);
    line.setAttribute('y1', y1 * scale);
    line.setAttribute('x2', x2 * scale);
    line.setAttribute('y2', y2 * scale);
    line.setAttribute('class', 'guide');
    line.dataset.guide = guide.x !== undefined ? `x:${guide.x}` : `y:${guide.y}`;
    return line;
  }));
}
