// Images (and texts) dropped on the canvas, as the Cards app takes them: each becomes an
// element where it was dropped, several spread a little apart so that none hides another.

/** How far apart, in canvas units, several dropped images land. */
export const SPREAD = 60;

/** Listens for drops on `viewport`: `onImages(files, at)` for image files, `onText(text, at)`
 * for dropped text; `at` is the drop point in canvas units. */
export function acceptDrops(viewport, canvas, { onImages, onText }) {
  viewport.addEventListener('dragover', (event) => {
    if (![...(event.dataTransfer?.types || [])].some((t) => t === 'Files' || t === 'text/plain')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    viewport.classList.add('drop-target');
  });
  viewport.addEventListener('dragleave', (event) => {
    // Left for somewhere outside the canvas (not just from one of its parts to another).
    if (!viewport.contains(event.relatedTarget)) viewport.classList.remove('drop-target');
  });
  viewport.addEventListener('drop', (event) => {
    viewport.classList.remove('drop-target');
    const transfer = event.dataTransfer;
    if (!transfer) return;
    event.preventDefault();
    const point = canvas.canvasPoint(event);
    const at = [point.x, point.y];
    const images = [...transfer.files].filter((file) => !file.type || file.type.startsWith('image/'));
    if (images.length) onImages(images, at);
    else if (transfer.getData('text/plain').trim()) onText(transfer.getData('text/plain').trim(), at);
  });
}
