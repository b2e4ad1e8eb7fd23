// Frames and affine maps in canvas units, as the editor's gestures need them. An element's
// frame is what the server describes: `at` (its centre), `size` and `rotation` (degrees,
// clockwise). A matrix is [a, b, c, d, e, f], mapping (x, y) to (a x + c y + e, b x + d y + f),
// as CSS's matrix() and the canvas's setTransform take it.

export const round = (value) => Math.round(value * 100) / 100;

const radians = (degrees) => ((degrees || 0) * Math.PI) / 180;

/** The frame's corners on the canvas: top-left, top-right, bottom-right, bottom-left. */
export function corners({ at: [cx, cy], size: [w, h], rotation = 0 }) {
  const cos = Math.cos(radians(rotation)), sin = Math.sin(radians(rotation));
  return [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([sx, sy]) => {
    const x = (sx * w) / 2, y = (sy * h) / 2;
    return { x: cx + x * cos - y * sin, y: cy + x * sin + y * cos };
  });
}

/** The axis-aligned box around the frame on the canvas: {x, y, width, height}. */
export function bounds(element) {
  const points = corners(element);
  const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** The box around several boxes. */
export function union(boxes) {
  if (!boxes.length) return null;
  const x = Math.min(...boxes.map((b) => b.x)), y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width)), bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** Whether the canvas point lies inside the (rotated) frame. */
export function contains(element, point) {
  const { at: [cx, cy], size: [w, h], rotation = 0 } = element;
  const angle = -radians(rotation), dx = point.x - cx, dy = point.y - cy;
  const x = dx * Math.cos(angle) - dy * Math.sin(angle), y = dx * Math.sin(angle) + dy * Math.cos(angle);
  return Math.abs(x) <= Math.max(w, 4) / 2 && Math.abs(y) <= Math.max(h, 4) / 2;
}

/** Whether two boxes overlap. */
export function intersects(a, b) {
  return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;
}

export const identity = [1, 0, 0, 1, 0, 0];

/** `first`, then `second`. */
export function multiply(second, first) {
  const [a, b, c, d, e, f] = first, [A, B, C, D, E, F] = second;
  return [A * a + C * b, B * a + D * b, A * c + C * d, B * c + D * d, A * e + C * f + E, B * e + D * f + F];
}

export const translation = (x, y) => [1, 0, 0, 1, x, y];
export const scaling = (x, y) => [x, 0, 0, y, 0, 0];
export function rotation(degrees) {
  const cos = Math.cos(radians(degrees)), sin = Math.sin(radians(degrees));
  return [cos, sin, -sin, cos, 0, 0];
}

export function apply([a, b, c, d, e, f], { x, y }) {
  return { x: a * x + c * y + e, y: b * x + d * y + f };
}

/** The map taking frame `from` onto frame `to` (a move, resize or rotation of an element). */
export function frameMap(from, to) {
  const [w0, h0] = from.size, [w1, h1] = to.size;
  let map = translation(-from.at[0], -from.at[1]);
  map = multiply(rotation(-(from.rotation || 0)), map);
  map = multiply(scaling(w0 ? w1 / w0 : 1, h0 ? h1 / h0 : 1), map);
  map = multiply(rotation(to.rotation || 0), map);
  return multiply(translation(to.at[0], to.at[1]), map);
}

/** A map in canvas units as CSS takes it on the stage, whose pixels are `scale` canvas units. */
export function cssMatrix([a, b, c, d, e, f], scale) {
  return `matrix(${a}, ${b}, ${c}, ${d}, ${e * scale}, ${f * scale})`;
}
