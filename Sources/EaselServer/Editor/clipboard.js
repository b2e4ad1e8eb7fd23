// Copy, cut, paste and duplicate of elements, within a document and across documents. What
// is copied is the elements as the server describes them, with where their images are; a
// paste adds each element with every property the target kind of element has (the schema
// says which), so a card's image is copied with its file (the server brings it into the
// target's folder, as a new photo). In the same document a paste lands a little down and
// to the right; in another of the same canvas size, the elements keep their places; on
// another canvas they are centred in the view, scaled down to fit it when they are larger. The system clipboard carries the
// elements (and their texts as plain text); a copy is also kept in the page's storage, so
// that it survives where the system clipboard is out of reach.

import { bounds, round, union } from './geometry.js';

const TYPE = 'application/x-easel-elements';
const STORAGE = 'easel.clipboard';
/** How far a paste into the same document lands from the original, in canvas units. */
const NUDGE = 24;

/** What copying `indices` of the document `description` puts on the clipboard. */
export function copied(description, indices) {
  return {
    source: description.path, type: description.type, canvas: description.canvas,
    resourceFolder: description.resourceFolder ?? '', elements: indices.map((i) => description.elements[i]),
  };
}

/** Puts `payload` on the clipboard of a copy or cut event (when given) and in storage. */
export function write(payload, event) {
  const text = payload.elements.map((e) => e.text).filter(Boolean).join('\n') || `${payload.elements.length} Easel element(s)`;
  payload.text = text;
  localStorage.setItem(STORAGE, JSON.stringify(payload));
  if (event?.clipboardData) {
    event.clipboardData.setData(TYPE, JSON.stringify(payload));
    event.clipboardData.setData('text/plain', text);
    event.preventDefault();
  }
}

/** Puts what the element menu's Copy copied on the system clipboard too, as the app does: an
 * image as the picture it shows (`imageURL`, a PNG), anything else as its text. Where the
 * system clipboard is out of reach (no permission, a page that is not secure) the page's
 * stored copy is all there is. */
export function writeSystem(payload, imageURL) {
  const system = navigator.clipboard;
  if (!system) return;
  const picture = imageURL && typeof ClipboardItem !== 'undefined'
    ? fetch(imageURL).then((response) => (response.ok ? response.blob() : Promise.reject(new Error(`HTTP ${response.status}`))))
    : null;
  // The picture goes with the copy's text, by which a paste here knows it for its own copy.
  const text = new Blob([payload.text], { type: 'text/plain' });
  const written = picture
    ? system.write([new ClipboardItem({ 'image/png': picture, 'text/plain': text })])
    : system.writeText(payload.text);
  written.catch(() => { /* out of reach: the stored copy stays */ });
}

/** The elements a paste event carries: Easel's own, or the page's stored copy when the
 * clipboard holds the text that copy put there; null for anything else. */
export function read(event) {
  const data = event?.clipboardData;
  const own = data?.getData(TYPE);
  if (own) { try { return JSON.parse(own); } catch { return null; } }
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(STORAGE) || 'null'); } catch { /* nothing kept */ }
  if (!stored) return null;
  const text = data?.getData('text/plain');
  return !data || text === stored.text ? stored : null;
}

/** The add operations that paste `payload` into the document `target` (a description),
 * with the property table `schema`; `visible` is the view's rectangle in canvas units.
 * Returns them and the kinds the target cannot hold. */
export function pasteOperations(payload, target, schema, visible) {
  const isCard = target.type === 'card';
  const refused = [];
  const sameDocument = payload.source === target.path;
  const sameCanvas = payload.canvas?.[0] === target.canvas[0] && payload.canvas?.[1] === target.canvas[1];
  // Where the elements go: nudged, kept, or scaled about their middle into the view.
  const box = union(payload.elements.map(bounds));
  let factor = 1, shift = [0, 0];
  if (sameDocument) {
    shift = [NUDGE, NUDGE];
  } else if (!sameCanvas) {
    factor = Math.min(1, (visible.width * 0.9) / Math.max(box.width, 1), (visible.height * 0.9) / Math.max(box.height, 1));
    const middle = [box.x + box.width / 2, box.y + box.height / 2];
    const centre = [visible.x + visible.width / 2, visible.y + visible.height / 2];
    shift = [centre[0] - middle[0], centre[1] - middle[1]];
    box.middle = middle;
  }
  const middle = box.middle || [box.x + box.width / 2, box.y + box.height / 2];
  const placePoint = ([x, y]) => [
    round(middle[0] + (x - middle[0]) * factor + shift[0]), round(middle[1] + (y - middle[1]) * factor + shift[1]),
  ];
  const operations = [];
  for (const element of payload.elements) {
    const kind = element.kind;
    if ((isCard && kind !== 'image' && kind !== 'text') || kind === 'group' || (kind === 'image' && !element.image)) {
      refused.push(kind);
      continue;
    }
    const operation = { verb: 'add', kind };
    if (kind === 'text') operation.value = element.text;
    if (kind === 'path') operation.value = element.path;
    if (kind === 'image') operation.value = payload.resourceFolder ? `${payload.resourceFolder}/${element.image}` : element.image;
    for (const property of schema.properties) {
      const holders = isCard ? property.card : property.drawing;
      const value = element[property.key];
      if (!holders.includes(kind) || value === undefined || value === null) continue;
      if (property.key === 'text' || property.key === 'path') continue;  // the value above
      if (property.key === 'clip' && element.clipPath) continue;  // a custom clip has no name to send
      if (kind === 'line' && ['at', 'size', 'rotation'].includes(property.key)) continue;  // the ends say it
      operation[property.key] = value;
    }
    if (operation.at) operation.at = placePoint(operation.at);
    if (operation.size) operation.size = operation.size.map((v) => round(v * factor));
    if (operation.fontSize) operation.fontSize = round(operation.fontSize * factor);
    if (kind === 'line') {
      operation.from = placePoint(element.from);
      operation.to = placePoint(element.to);
    }
    operations.push(operation);
  }
  return { operations, refused };
}
