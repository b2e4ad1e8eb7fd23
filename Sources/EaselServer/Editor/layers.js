// Live previews of the elements alone. While a gesture moves, resizes or rotates elements
// (or an inspector value is being typed), the server's rendering of the document without
// them stands in for the picture, and their own rendering (them alone, on nothing) moves
// over it on a layer of its own: the rest stays as it was, nothing is cut out of the
// picture. Both are fetched when the selection settles, so a gesture starts with them
// ready. When the gesture's save comes back, the server's full rendering replaces both.

import { previewURL } from './api.js';
import { cssMatrix, frameMap, identity, multiply } from './geometry.js';

export class Layers {
  /** `renderedFrame(index)`: the element's frame in the document whose rendering is on
   * screen; `currentFrame(index)`: where the editor has it now (a save not yet rendered
   * may have moved it). */
  constructor({ canvas, renderedFrame, currentFrame }) {
    Object.assign(this, { canvas, renderedFrame, currentFrame });
    this.correction = identity;
    /** Gestures begun so far: a save's rendering ends only the layers of its own gesture. */
    this.generation = 0;
    this.backdrop = this.image('backdrop', 'The document without the elements being changed');
    this.layer = this.image('layer', 'The elements being changed');
    this.prepared = null;
    this.active = false;
    this.matrix = identity;
    canvas.onLoaded((revision) => {
      if (this.settling && revision === this.settling) this.clear();
    });
  }

  image(className, label) {
    const image = document.createElement('img');
    image.className = className;
    image.alt = label;
    image.hidden = true;
    image.draggable = false;
    this.canvas.image.parentElement.insertBefore(image, this.canvas.gridOverlay);
    return image;
  }

  /** Fetches the layers for the elements at `indices` (both renderings), if not done already. */
  prepare(indices) {
    if (!indices.length || !this.canvas.path) return null;
    const only = indices.join(',');
    const key = `${this.canvas.path}|${this.canvas.revision}|${this.canvas.imagePixelWidth}|${only}`;
    if (this.prepared?.key === key) return this.prepared;
    const load = (url) => new Promise((resolve) => {
      const image = new Image();
      image.onload = () => resolve(url);
      image.onerror = () => resolve(null);
      image.src = url;
    });
    const without = this.canvas.imageURL({ without: only }), alone = this.canvas.imageURL({ only });
    this.prepared = { key, ready: Promise.all([load(without), load(alone)]) };
    return this.prepared;
  }

  /** A gesture on the elements at `indices` starts: the layers show as soon as they are
   * there. With `alone: false` the elements are not shown at all (the page draws them);
   * with `fromRendered` the gesture measures from the rendering on screen (a line's ends). */
  begin(indices, { alone = true, fromRendered = false } = {}) {
    const prepared = this.prepare(indices);
    this.active = true;
    this.settling = null;
    this.matrix = identity;
    this.generation += 1;
    // The layer shows the elements where the rendering on screen has them; the gesture
    // measures from where they are now. A gesture begun before the last one's save is
    // rendered starts from further on: without this the element would jump back.
    const rendered = this.renderedFrame?.(indices[0]), current = this.currentFrame?.(indices[0]);
    this.correction = !fromRendered && rendered?.at && rendered?.size && current?.at && current?.size
      ? frameMap(rendered, current) : identity;
    prepared?.ready.then(([without, image]) => {
      if (!this.active || this.prepared !== prepared || !without || !image) return;
      this.show(without, alone ? image : null);
    });
  }

  show(without, alone) {
    this.backdrop.src = without;
    if (alone) this.layer.src = alone;
    this.backdrop.hidden = false;
    this.layer.hidden = !alone;
    this.canvas.image.style.visibility = 'hidden';
    this.canvas.detail.style.visibility = 'hidden';
    this.place();
  }

  /** Moves the layer by `matrix` (canvas units: where the gesture has taken the elements). */
  transform(matrix) {
    this.matrix = matrix;
    this.place();
  }

  place() {
    this.layer.style.transform = cssMatrix(multiply(this.matrix, this.correction), this.canvas.scale);
  }

  /** The gesture ended: the layers stay until the rendering of `revision` (the saved
   * result) is on screen; with no revision (nothing was saved), they go now. */
  end(revision, generation) {
    // The save of an earlier gesture, rendered while a later one is under way: that one's
    // layers stay (the element would stop following the finger).
    if (generation !== undefined && generation < this.generation && this.active) return;
    this.active = false;
    this.previewTicket = (this.previewTicket || 0) + 1;  // a preview on its way is too late
    if (!revision || (this.canvas.image.dataset.revision === revision && this.canvas.image.complete)) this.clear();
    else this.settling = revision;
  }

  /** While an inspector value is typed: the elements at `indices` as `operations` would
   * make them, over the document without them. */
  async preview(path, indices, operations) {
    const prepared = this.prepare(indices);
    this.active = true;
    this.matrix = identity;
    this.correction = identity;  // the preview is drawn where the value typed puts it
    const ticket = (this.previewTicket = (this.previewTicket || 0) + 1);
    try {
      const [urls, blob] = await Promise.all([
        prepared.ready,
        fetch(previewURL(path, { width: this.canvas.imagePixelWidth, only: indices.join(',') }), {
          method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ operations }),
        }).then((response) => (response.ok ? response.blob() : null)),
      ]);
      if (ticket !== this.previewTicket || !this.active || !blob || !urls[0]) return;
      if (this.blobURL) URL.revokeObjectURL(this.blobURL);
      this.blobURL = URL.createObjectURL(blob);
      this.show(urls[0], this.blobURL);
    } catch {
      // A preview is a courtesy: the value is still saved when the field is left.
    }
  }

  clear() {
    this.active = false;
    this.previewTicket = (this.previewTicket || 0) + 1;
    this.settling = null;
    this.backdrop.hidden = true;
    this.layer.hidden = true;
    this.backdrop.removeAttribute('src');
    this.layer.removeAttribute('src');
    this.canvas.image.style.visibility = '';
    this.canvas.detail.style.visibility = '';
    if (this.blobURL) URL.revokeObjectURL(this.blobURL);
    this.blobURL = null;
  }
}
