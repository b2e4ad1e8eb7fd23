// The canvas: the document as Easel renders it (the server's PNG at the screen's
// resolution, so what is seen is what export writes), the view onto it (zoom from 10 % to
// 800 %, Fit, panning by scrolling), and the mapping between canvas units and screen
// pixels that the interactive layer uses. Past a pixel budget the whole-canvas image stays
// at the budget and a detail image of the visible part is rendered at full resolution.

import { renderURL } from './api.js';
import { forgetPicture, showPicture } from './pictures.js';
import { GRID } from './settings.js';

export const MIN_ZOOM = 0.1;
export const MAX_ZOOM = 8;
/** The most pixels the whole-canvas image is rendered with (a 1300x2000 card at 250 %). */
const MAX_IMAGE_PIXELS = 16e6;
/** How long the view rests before the server is asked for what it now shows: the picture at a
 * zoom gesture's new zoom, the sharp detail of the part in view. */
const SETTLE_MS = 150;

export class Canvas {
  constructor({ viewport, stage, image, detail, gridOverlay }) {
    this.viewport = viewport;
    this.stage = stage;
    this.image = image;
    this.detail = detail;
    this.gridOverlay = gridOverlay;
    this.size = { width: 1, height: 1 };
    this.zoom = 'fit';
    this.scale = 1;
    this.showGrid = false;
    this.loadedListeners = [];
    new ResizeObserver(() => this.layout()).observe(viewport);
    viewport.addEventListener('scroll', () => this.scheduleDetail());
    image.addEventListener('load', () => {
      for (const listener of this.loadedListeners) listener(image.dataset.revision);
    });
  }

  /** Shows `path` at `revision` (the revision in the URL makes each version its own image). */
  show(path, canvasSize, revision) {
    this.path = path;
    this.size = { width: canvasSize[0], height: canvasSize[1] };
    this.revision = revision;
    this.layout();
  }

  /** Calls `listener(revision)` each time a rendering has loaded. */
  onLoaded(listener) {
    this.loadedListeners.push(listener);
  }

  /** Room around the canvas, in screen pixels: the stage's margins (smaller on a phone,
   * where the card fills the width). */
  get margin() {
    return 2 * (parseFloat(getComputedStyle(this.stage).marginTop) || 0);
  }

  /** The scale Fit gives: the whole canvas in the viewport. */
  get fitScale() {
    const margin = this.margin;
    return Math.max(MIN_ZOOM / 4, Math.min(
      (this.viewport.clientWidth - margin) / this.size.width, (this.viewport.clientHeight - margin) / this.size.height));
  }

  /** 'fit' or a scale (1 is 100 %), kept within 10 % to 800 %; `around` (client
   * coordinates) stays where it is on screen, by default the viewport's middle. `gesture`:
   * a step of a pinch or a wheel, which asks for its picture once the gesture rests. */
  setZoom(zoom, around, { gesture = false } = {}) {
    const view = this.viewport.getBoundingClientRect();
    const anchor = around || { clientX: view.left + view.width / 2, clientY: view.top + view.height / 2 };
    const fixed = this.path ? this.canvasPoint(anchor) : null;
    this.zoom = zoom === 'fit' ? 'fit' : Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Number(zoom) || 1));
    this.layout({ gesture });
    if (fixed) this.scrollToPlace(fixed, anchor);
  }

  /** Multiplies the zoom by `factor` about `around` (a pinch, Ctrl-wheel, the buttons);
   * `options` as `setZoom`'s. */
  zoomBy(factor, around, options) {
    this.setZoom(this.scale * factor, around, options);
  }

  /** Zooms so that `rect` (canvas units) fills the viewport, and centres it. */
  zoomTo(rect) {
    const width = Math.max(rect.width, 1), height = Math.max(rect.height, 1);
    const scale = Math.min((this.viewport.clientWidth - this.margin) / width, (this.viewport.clientHeight - this.margin) / height);
    this.setZoom(scale);
    this.centreOn({ x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 });
  }

  /** Scrolls so that the canvas point `point` is in the viewport's middle. */
  centreOn(point) {
    const view = this.viewport.getBoundingClientRect();
    this.scrollToPlace(point, { clientX: view.left + view.width / 2, clientY: view.top + view.height / 2 });
  }

  /** Scrolls so that the canvas point `point` is at the client position `at`. */
  scrollToPlace(point, at) {
    const now = this.clientPoint(point);
    this.viewport.scrollLeft += now.x - at.clientX;
    this.viewport.scrollTop += now.y - at.clientY;
  }

  /** Pans the view by screen pixels. */
  panBy(dx, dy) {
    this.viewport.scrollLeft -= dx;
    this.viewport.scrollTop -= dy;
  }

  /** The part of the canvas the viewport shows, in canvas units. */
  visibleRect() {
    const view = this.viewport.getBoundingClientRect(), box = this.stage.getBoundingClientRect();
    const x0 = Math.max(0, (view.left - box.left) / this.scale), y0 = Math.max(0, (view.top - box.top) / this.scale);
    const x1 = Math.min(this.size.width, (view.right - box.left) / this.scale);
    const y1 = Math.min(this.size.height, (view.bottom - box.top) / this.scale);
    return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
  }

  /** Sizes the stage and asks for the picture it needs; `gesture` as `setZoom`'s. */
  layout({ gesture = false } = {}) {
    if (!this.path) return;
    this.scale = this.zoom === 'fit' ? this.fitScale : this.zoom;
    const width = Math.round(this.size.width * this.scale), height = Math.round(this.size.height * this.scale);
    this.stage.style.width = `${width}px`;
    this.stage.style.height = `${height}px`;
    this.requestImage(this.imageURL(), { settle: gesture });
    this.drawGrid(width, height);
    this.scheduleDetail();
    this.onLayout?.();
  }

  /** Shows the whole-canvas image at `url`: at once, or with `settle` (a step of a zoom
   * gesture on the same version) once the gesture has rested for `SETTLE_MS`, since a pinch
   * or a wheel passes through many widths on its way (the stage scales the picture it has
   * meanwhile) and each asked for would be a render the server makes for nobody. */
  requestImage(url, { settle = false } = {}) {
    // The latest request is the one that counts: one still waiting for its gesture to rest is dropped.
    clearTimeout(this.imageTimer);
    if (this.image.dataset.url === url) return;
    const version = `${this.path}|${this.revision}`;
    const load = () => {
      this.image.dataset.revision = this.revision;
      this.image.dataset.version = version;
      showPicture(this.image, url);
    };
    if (!settle || this.image.dataset.version !== version) return load();
    this.imageTimer = setTimeout(load, SETTLE_MS);
  }

  /** The pixel width the whole-canvas image is rendered at: the displayed size times the
   * device pixel ratio, within the pixel budget. */
  get imagePixelWidth() {
    const wanted = this.size.width * this.scale * (window.devicePixelRatio || 1);
    const budget = Math.sqrt(MAX_IMAGE_PIXELS * this.size.width / this.size.height);
    return Math.max(1, Math.round(Math.min(wanted, budget)));
  }

  /** The whole-canvas rendering's URL, with `query` added (`only`, `without`: the layers
   * of a live preview). The revision in the URL: each version is its own image. */
  imageURL(query = {}) {
    return renderURL(this.path, 'png', { width: this.imagePixelWidth, rev: this.revision, ...query });
  }

  /** Past the pixel budget, the visible part at full resolution, a moment after the view settles. */
  scheduleDetail() {
    clearTimeout(this.detailTimer);
    this.detailTimer = setTimeout(() => this.updateDetail(), SETTLE_MS);
  }

  updateDetail() {
    const ratio = window.devicePixelRatio || 1;
    const sharp = this.imagePixelWidth >= Math.round(this.size.width * this.scale * ratio);
    const area = this.visibleRect();
    if (!this.path || sharp || area.width <= 0 || area.height <= 0) {
      this.detail.hidden = true;
      // Forgotten, not only removed: the same part asked for again later is shown again.
      forgetPicture(this.detail);
      return;
    }
    const round = (v) => Math.round(v * 100) / 100;
    const pixels = Math.max(1, Math.round(area.width * this.scale * ratio));
    const url = renderURL(this.path, 'png', {
      area: [area.x, area.y, area.width, area.height].map(round).join(','), width: pixels, rev: this.revision,
    });
    Object.assign(this.detail.style, {
      left: `${area.x * this.scale}px`, top: `${area.y * this.scale}px`,
      width: `${area.width * this.scale}px`, height: `${area.height * this.scale}px`,
    });
    if (this.detail.dataset.url !== url) {
      this.detail.hidden = true;
      this.detail.onload = () => { this.detail.hidden = false; };
      showPicture(this.detail, url);
    }
  }

  drawGrid(width, height) {
    const canvas = this.gridOverlay;
    canvas.width = Math.min(width, 8192);
    canvas.height = Math.min(height, 8192);
    const context = canvas.getContext('2d');
    context.clearRect(0, 0, canvas.width, canvas.height);
    if (!this.showGrid) return;
    const sx = canvas.width / width, sy = canvas.height / height;
    context.strokeStyle = 'rgba(10, 100, 216, 0.25)';
    context.lineWidth = 1;
    context.beginPath();
    for (let x = GRID; x < this.size.width; x += GRID) {
      context.moveTo(Math.round(x * this.scale * sx) + 0.5, 0);
      context.lineTo(Math.round(x * this.scale * sx) + 0.5, canvas.height);
    }
    for (let y = GRID; y < this.size.height; y += GRID) {
      context.moveTo(0, Math.round(y * this.scale * sy) + 0.5);
      context.lineTo(canvas.width, Math.round(y * this.scale * sy) + 0.5);
    }
    context.stroke();
  }

  /** Screen pixels to canvas units (a distance). */
  toCanvas(pixels) {
    return pixels / this.scale;
  }

  /** A pointer event's (or any `{clientX, clientY}`'s) position in canvas units. */
  canvasPoint(event) {
    const box = this.stage.getBoundingClientRect();
    return { x: (event.clientX - box.left) / this.scale, y: (event.clientY - box.top) / this.scale };
  }

  /** A canvas point's position on screen (client coordinates). */
  clientPoint(point) {
    const box = this.stage.getBoundingClientRect();
    return { x: box.left + point.x * this.scale, y: box.top + point.y * this.scale };
  }
}
