// Following one pointer from its press to its release.

/** Follows the pointer of `event` until it is released: `move(event)` on each move, `end(event)`
 * after. `target` captures the pointer, so that moves reach it while boxes are redrawn. */
export function track(target, event, move, end) {
  event.preventDefault();
  try { target.setPointerCapture(event.pointerId); } catch { /* a synthetic event: moves still reach the target */ }
  const onMove = (moveEvent) => { if (moveEvent.pointerId === event.pointerId) move(moveEvent); };
  const onUp = (upEvent) => {
    if (upEvent.pointerId !== event.pointerId) return;
    target.removeEventListener('pointermove', onMove);
    target.removeEventListener('pointerup', onUp);
    target.removeEventListener('pointercancel', onUp);
    end(upEvent);
  };
  target.addEventListener('pointermove', onMove);
  target.addEventListener('pointerup', onUp);
  target.addEventListener('pointercancel', onUp);
}
