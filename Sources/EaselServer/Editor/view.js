// The view's controls: the zoom menu and buttons (−, +, Fit, the selection), Ctrl-wheel
// and a trackpad's pinch (which browsers send as a wheel with Ctrl) zooming about the
// pointer, Ctrl/Cmd + and − and Shift-0/1/2 (100 %, Fit, the selection), and panning by
// dragging with Space held or with the middle button. `onChange({zoom, centre})` is told
// where the view is, so that reopening the page puts it back; `report()` (returned) tells
// it and shows the zoom after the view was set from elsewhere.

import { track } from './pointer.js';

const $ = (id) => document.getElementById(id);
/** Each step of the buttons and keys multiplies the zoom by this. */
const STEP = 1.25;

export function installView({ canvas, viewport, selection, onChange }) {
  const menu = $('zoom');
  const report = () => {
    const value = canvas.zoom === 'fit' ? 'fit' : String(canvas.zoom);
    // A zoom that no item names (a pinch's) is shown as its own item.
    let custom = menu.querySelector('option[data-custom]');
    if (![...menu.options].some((option) => option.value === value && !option.dataset.custom)) {
      if (!custom) {
        custom = new Option('', '');
        custom.dataset.custom = 'true';
        menu.append(custom);
      }
      custom.value = value;
      custom.textContent = `${Math.round(canvas.scale * 100)}%`;
    } else {
      custom?.remove();
    }
    menu.value = value;
    const area = canvas.visibleRect();
    onChange({ zoom: canvas.zoom, centre: [Math.round(area.x + area.width / 2), Math.round(area.y + area.height / 2)] });
  };
  const zoomBy = (factor, around, options) => { canvas.zoomBy(factor, around, options); report(); };
  const toSelection = () => {
    const box = selection.selectionBounds;
    canvas.zoomTo(box || { x: 0, y: 0, width: canvas.size.width, height: canvas.size.height });
    report();
  };
  menu.addEventListener('change', () => { canvas.setZoom(menu.value); report(); });
  $('zoom-in').addEventListener('click', () => zoomBy(STEP));
  $('zoom-out').addEventListener('click', () => zoomBy(1 / STEP));
  $('zoom-selection').addEventListener('click', toSelection);

  viewport.addEventListener('wheel', (event) => {
    if (!event.ctrlKey && !event.metaKey) return;  // a plain wheel scrolls: that pans
    event.preventDefault();
    const factor = Math.exp(-Math.max(-50, Math.min(50, event.deltaY)) * 0.01);
    zoomBy(factor, event, { gesture: true });
  }, { passive: false });

  // What the keys moved the focus to (Tab, the arrows), as against a press or a click.
  let lastInput = 'pointer', keyboardFocused = null;
  document.addEventListener('pointerdown', () => { lastInput = 'pointer'; }, { capture: true });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Tab' || event.key.startsWith('Arrow')) lastInput = 'keyboard';
  }, { capture: true });
  document.addEventListener('focusin', (event) => { keyboardFocused = lastInput === 'keyboard' ? event.target : null; });
  let spaceHeld = false;
  const releaseSpace = () => { spaceHeld = false; viewport.classList.remove('panning'); };
  // A Space released while another window had the keys never comes back as a keyup.
  window.addEventListener('blur', releaseSpace);
  document.addEventListener('keydown', (event) => {
    if (document.body.dataset.view !== 'editor' || event.target.matches?.('input, select, textarea, [contenteditable]')) return;
    // Space pans, unless a control outside the canvas was reached with the keys (a button,
    // a menu item, a sticker), or an open menu's item has them (the element's menu gives
    // its first item the keys, however it was opened): then it presses that, as Space does.
    // (A button clicked with the mouse keeps the focus, and Space still pans.)
    const control = (event.target === keyboardFocused && !viewport.contains(event.target))
      || Boolean(event.target.matches?.('[role="menuitem"]'));
    if (event.key === ' ' && !control) {
      spaceHeld = true;
      viewport.classList.add('panning');
      event.preventDefault();
      return;
    }
    const modifier = event.ctrlKey || event.metaKey;
    if (modifier && (event.key === '=' || event.key === '+')) { event.preventDefault(); zoomBy(STEP); }
    else if (modifier && event.key === '-') { event.preventDefault(); zoomBy(1 / STEP); }
    else if (event.shiftKey && !modifier && event.code === 'Digit0') { event.preventDefault(); canvas.setZoom(1); report(); }
    else if (event.shiftKey && !modifier && event.code === 'Digit1') { event.preventDefault(); canvas.setZoom('fit'); report(); }
    else if (event.shiftKey && !modifier && event.code === 'Digit2') { event.preventDefault(); toSelection(); }
  });
  document.addEventListener('keyup', (event) => { if (event.key === ' ') releaseSpace(); });
  // Panning: Space-drag or the middle button, before anything on the canvas sees the press.
  viewport.addEventListener('pointerdown', (event) => {
    if (!(event.button === 1 || (event.button === 0 && spaceHeld))) return;
    event.stopPropagation();
    let last = { x: event.clientX, y: event.clientY };
    track(viewport, event, (moveEvent) => {
      canvas.panBy(moveEvent.clientX - last.x, moveEvent.clientY - last.y);
      last = { x: moveEvent.clientX, y: moveEvent.clientY };
    }, () => report());
  }, { capture: true });
  let scrolled = null;
  viewport.addEventListener('scroll', () => {
    clearTimeout(scrolled);
    scrolled = setTimeout(report, 200);
  });
  return { report };
}
