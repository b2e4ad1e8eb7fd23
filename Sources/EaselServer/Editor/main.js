// The editor's entry point: the document browser at #/, the editor at #/edit/PATH, the
// toolbar (status, undo, redo, export, settings), the change events that keep both views
// live, and the scene restored on reload.

import * as api from './api.js';
import { renderBrowser } from './browser.js';
import { Canvas } from './canvas.js';
import { installHistory, updateHistoryButtons } from './history.js';
import { renderInspector } from './inspector.js';
import { Selection } from './selection.js';
import { settings, saveSettings, applyTheme, scene, saveScene } from './settings.js';
import { Sync, listen } from './sync.js';

const $ = (id) => document.getElementById(id);
const buttons = { undoButton: $('undo'), redoButton: $('redo') };

const state = { path: null, description: null, revision: null, loading: null, schema: null };
// The property table, fetched once; the inspector builds its controls from it.
api.schema().then((schema) => { state.schema = schema; showInspector(); }).catch(showError);

const canvas = new Canvas({ viewport: $('viewport'), stage: $('stage'), image: $('rendering'), gridOverlay: $('grid-overlay') });
const selection = new Selection({
  canvas, overlay: $('overlay'), viewport: $('viewport'),
  onGesture: (operations) => commit(operations),
  onSelect: (index) => { showInspector(); saveScene({ selection: index }); },
});
canvas.onLayout = () => selection.draw();

const sync = new Sync({
  statusElement: $('status'),
  onSaved: (outcome, error) => {
    if (error) { showRefusal(error); return; }
    updateHistoryButtons(buttons, outcome);
    reload(outcome.revision);
  },
  onConflict: (operations) => {
    state.pending = operations;
    $('conflict').hidden = false;
    $('conflict-reload').focus();
  },
});

/** Applies a gesture's operations locally at once (the preview) and saves them. */
function commit(operations) {
  if (!state.path) return;
  sync.save(operations);
}

/** Loads the document's description and rendering (after a save, or a change elsewhere). */
async function reload(knownRevision) {
  if (!state.path) return;
  const path = state.path;
  try {
    const { description, revision, history } = await api.describe(path);
    if (path !== state.path) return;
    updateHistoryButtons(buttons, history);
    state.description = description;
    state.revision = revision;
    if (!knownRevision) sync.adopt(revision);
    canvas.show(path, description.canvas, revision);
    selection.setElements(description.elements);
    // A new element is selected once the server has it (it is the last in drawing order).
    if (state.selectAdded !== undefined && state.selectAdded < description.elements.length) selection.select(state.selectAdded);
    state.selectAdded = undefined;
    showInspector();
    $('title').textContent = `${path} — ${description.type}, ${description.canvas.join('×')}`;
  } catch (error) {
    showError(error);
  }
}

function showInspector() {
  if (!state.description) return;
  renderInspector($('inspector'), {
    description: state.description, element: selection.selected ? { ...selection.selected } : null, schema: state.schema,
    onChange: (operations) => commit(operations),
  });
}

/** A refused edit: the server's message beside the control that sent it (its key path names
 * the property), the picture and the inspector back to what the server holds. */
async function showRefusal(error) {
  await reload();
  const keyPath = error.problem?.keyPath || '';
  const key = keyPath.split('.').pop();
  const control = key && $('inspector').querySelector(`[data-key="${CSS.escape(key)}"]`);
  const message = document.createElement('p');
  message.className = 'refusal';
  message.setAttribute('role', 'alert');
  // Beside its control, the message needs no key path of its own.
  message.textContent = control ? error.message.replace(`request body: ${keyPath}: `, '') : error.message;
  if (control) control.after(message); else $('inspector').prepend(message);
}

function showError(error) {
  $('status').textContent = error.message;
  $('status').dataset.state = 'offline';
}

async function openDocument(path) {
  state.path = path;
  $('browser').hidden = true;
  $('editor').hidden = false;
  document.body.dataset.view = 'editor';
  const restored = scene();
  const zoom = restored.path === path ? restored.zoom : settings.zoom;
  $('zoom').value = zoom;
  canvas.setZoom(zoom);
  try {
    const { description, revision, history } = await api.describe(path);
    state.description = description;
    state.revision = revision;
    updateHistoryButtons(buttons, history);
    sync.open(path, revision);
    canvas.show(path, description.canvas, revision);
    selection.setElements(description.elements);
    const index = restored.path === path ? restored.selection : null;
    selection.select(index !== null && index < description.elements.length ? index : null);
    $('title').textContent = `${path} — ${description.type}, ${description.canvas.join('×')}`;
    buildAddTools(description.type);
    buildExportMenu(path);
    saveScene({ path, zoom });
  } catch (error) {
    showError(error);
  }
  $('viewport').focus({ preventScroll: true });
}

function showBrowser() {
  state.path = null;
  saveScene({ path: null, selection: null });
  state.description = null;
  $('editor').hidden = true;
  $('browser').hidden = false;
  document.body.dataset.view = 'browser';
  $('title').textContent = '';
  renderBrowser($('grid'), { onError: showError });
}

/** The middle of what the viewport shows, in canvas units, kept on the canvas: where a new
 * element goes when it is not placed by the pointer. */
function visibleCentre() {
  const view = $('viewport').getBoundingClientRect();
  const point = canvas.canvasPoint({ clientX: view.left + view.width / 2, clientY: view.top + view.height / 2 });
  const [width, height] = state.description.canvas;
  return [Math.round(Math.min(width, Math.max(0, point.x))), Math.round(Math.min(height, Math.max(0, point.y)))];
}

function buildAddTools(type) {
  const tools = $('add-tools');
  tools.replaceChildren();
  const kinds = type === 'card' ? ['text'] : ['rectangle', 'ellipse', 'star', 'heart', 'line', 'text'];
  for (const kind of kinds) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = `+ ${kind}`;
    button.setAttribute('aria-label', `Add ${kind}`);
    button.addEventListener('click', () => {
      const [width, height] = state.description.canvas;
      const operation = { verb: 'add', kind, at: visibleCentre() };
      if (kind === 'text') operation.value = 'Text';
      // A card's text is drawn to fit its frame: a frame for one short word, not the app's 800x800.
      if (kind === 'text' && type === 'card') operation.size = [520, 260];
      state.selectAdded = state.description.elements.length;
      if (type !== 'card' && kind !== 'text' && kind !== 'line') {
        Object.assign(operation, { size: [width / 4, width / 4], fill: 'tomato' });
      }
      if (kind === 'line') Object.assign(operation, { from: [width / 3, height / 2], to: [(2 * width) / 3, height / 2], stroke: 'black', strokeWidth: 4 });
      commit([operation]);
    });
    tools.append(button);
  }
}

function buildExportMenu(path) {
  const items = $('export-items');
  items.replaceChildren();
  for (const format of ['png', 'svg', 'pdf']) {
    for (const preset of ['share', 'thumbnail']) {
      const link = document.createElement('a');
      link.href = api.renderURL(path, format, { preset });
      link.download = `${path.split('/').pop().replace(/\.[^.]*$/, '')}${preset === 'thumbnail' ? '-thumbnail' : ''}.${format}`;
      link.textContent = `${format.toUpperCase()} (${preset})`;
      items.append(link);
    }
  }
}

function route() {
  const match = location.hash.match(/^#\/edit\/(.+)$/);
  if (match) openDocument(decodeURIComponent(match[1]));
  else showBrowser();
}

// Toolbar and settings.
installHistory({
  ...buttons,
  onUndo: async () => {
    if (!state.path) return;
    try { const outcome = await api.undo(state.path); updateHistoryButtons(buttons, outcome); await reload(); } catch (error) { showError(error); }
  },
  onRedo: async () => {
    if (!state.path) return;
    try { const outcome = await api.redo(state.path); updateHistoryButtons(buttons, outcome); await reload(); } catch (error) { showError(error); }
  },
});
$('zoom').addEventListener('change', () => {
  canvas.setZoom($('zoom').value);
  saveSettings({ zoom: $('zoom').value });
  saveScene({ zoom: $('zoom').value });
});
$('setting-grid').checked = settings.grid;
$('setting-snap').checked = settings.snap;
$('setting-theme').value = settings.theme;
canvas.showGrid = settings.grid;
$('setting-grid').addEventListener('change', () => { saveSettings({ grid: $('setting-grid').checked }); canvas.showGrid = settings.grid; canvas.layout(); });
$('setting-snap').addEventListener('change', () => saveSettings({ snap: $('setting-snap').checked }));
$('setting-theme').addEventListener('change', () => saveSettings({ theme: $('setting-theme').value }));
applyTheme();

// The Export and Settings menus close on Escape and on a press outside them.
const openMenus = () => document.querySelectorAll('details.menu[open]');
document.addEventListener('pointerdown', (event) => {
  for (const menu of openMenus()) if (!menu.contains(event.target)) menu.open = false;
});
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  for (const menu of openMenus()) {
    menu.open = false;
    menu.querySelector('summary')?.focus();
  }
});

$('new-card').addEventListener('click', async () => {
  try { const created = await api.create('card'); location.hash = `#/edit/${encodeURIComponent(created.path)}`; } catch (error) { showError(error); }
});
$('new-drawing').addEventListener('click', async () => {
  try { const created = await api.create('drawing'); location.hash = `#/edit/${encodeURIComponent(created.path)}`; } catch (error) { showError(error); }
});
$('upload').addEventListener('change', async () => {
  const file = $('upload').files[0];
  $('upload').value = '';
  if (!file || !state.path) return;
  try { const outcome = await api.upload(state.path, file, sync.revision); updateHistoryButtons(buttons, outcome); await reload(); } catch (error) { showError(error); }
});
$('conflict-reload').addEventListener('click', async () => {
  $('conflict').hidden = true;
  state.pending = null;
  const { revision } = await api.describe(state.path);
  sync.open(state.path, revision);
  await reload();
});
$('conflict-copy').addEventListener('click', async () => {
  $('conflict').hidden = true;
  try {
    const copy = await api.duplicate(state.path);
    const { revision } = await api.describe(copy.path);
    // The copy is made from the saved document; the edits that could not be saved go onto it.
    await api.edit(copy.path, (state.pending || []).flat(), revision);
    state.pending = null;
    location.hash = `#/edit/${encodeURIComponent(copy.path)}`;
  } catch (error) { showError(error); }
});

// Live: what the CLI or anything else changes shows here.
listen((event) => {
  if (state.path && event.path === state.path) {
    if (event.revision && event.revision !== sync.revision && sync.state !== 'saving') {
      sync.adopt(event.revision);
      reload(event.revision);
    }
  } else if (!state.path) {
    renderBrowser($('grid'), { onError: showError });
  }
});

// A nudge waiting for the keys to rest is a gesture too: leaving the page sends it first.
const sendNudge = () => {
  sync.leaving = true;
  clearTimeout(selection.nudgeTimer);
  selection.endNudge();
};
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') sendNudge();
  else sync.leaving = false;
}, { capture: true });
window.addEventListener('pagehide', sendNudge, { capture: true });

window.addEventListener('hashchange', route);
// Reopening the page restores the last document (SceneStorage): only when the page opens at its root.
if (!location.hash && scene().path) location.hash = `#/edit/${encodeURIComponent(scene().path)}`;
else route();
