// The canvas: the document as Easel renders it (the server's PNG at the screen's
// resolution, so what is seen is what export writes), scaled by the zoom, and the mapping
// between canvas units and screen pixels that the interactive layer uses.

import { renderURL } from './api.js';
import { GRID } from './settings.js';

export class Canvas {
  constructor({ viewport, stage, image, gridOverlay }) {
    this.viewport = viewport;
    this.stage = stage;
    this.image = image;
    this.gridOverlay = gridOverlay;
    this.size = { width: 1, height: 1 };
    this.zoom = 'fit';
    this.scale = 1;
    this.showGrid = false;
    new ResizeObserver(() => this.layout()).observe(viewport);
  }

  /** Shows `path` at `revision` (the revision in the URL makes each version its own image). */
  show(path, canvasSize, revision) {
    this.path = path;
    this.size = { width: canvasSize[0], height: canvasSize[1] };
    this.revision = revision;
    this.layout();
  }

  setZoom(zoom) {
    this.zoom = zoom;
    this.layout();
  }

  layout() {
    if (!this.path) return;
    const margin = 48;
    const fit = Math.min(
      (this.viewport.clientWidth - margin) / this.size.width, (this.viewport.clientHeight - margin) / this.size.height);
    this.scale = this.zoom === 'fit' ? Math.max(0.05, fit) : Number(this.zoom);
    const width = Math.round(this.size.width * this.scale), height = Math.round(this.size.height * this.scale);
    this.stage.style.width = `${width}px`;
    this.stage.style.height = `${height}px`;
    // Pixels for the screen: the displayed size times the device pixel ratio.
    const pixels = Math.max(1, Math.round(width * (window.devicePixelRatio || 1)));
    // The revision in the URL: each version is its own image for the browser's cache.
    const url = renderURL(this.path, 'png', { width: pixels, rev: this.revision });
    if (this.image.dataset.url !== url) {
      this.image.dataset.url = url;
      this.image.src = url;
      this.image.dataset.revision = this.revision;
    }
    this.drawGrid(width, height);
    this.onLayout?.();
  }

  drawGrid(width, height) {
    const canvas = this.gridOverlay;
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    context.clearRect(0, 0, width, height);
    if (!this.showGrid) return;
    context.strokeStyle = 'rgba(10, 100, 216, 0.25)';
    context.lineWidth = 1;
    context.beginPath();
    for (let x = GRID; x < this.size.width; x += GRID) {
      context.moveTo(Math.round(x * this.scale) + 0.5, 0);
      context.lineTo(Math.round(x * this.scale) + 0.5, height);
    }
    for (let y = GRID; y < this.size.height; y += GRID) {
      context.moveTo(0, Math.round(y * this.scale) + 0.5);
      context.lineTo(width, Math.round(y * this.scale) + 0.5);
    }
    context.stroke();
  }

  /** Screen pixels to canvas units (a distance). */
  toCanvas(pixels) {
    return pixels / this.scale;
  }

  /** A pointer event's position in canvas units. */
  canvasPoint(event) {
    const box = this.stage.getBoundingClientRect();
    return { x: (event.clientX - box.left) / this.scale, y: (event.clientY - box.top) / this.scale };
  }
}
