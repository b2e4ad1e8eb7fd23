// The editor's entry point: the document browser at #/, the editor at #/edit/PATH, the
// toolbar (status, undo, redo, export, settings), the view (zoom and pan), what comes in
// (tools, typed text, dropped, pasted and picked images, pasted elements), the change
// events that keep both views live, and the scene restored on reload.

import * as api from './api.js';
import { renderBrowser } from './browser.js';
import { Canvas } from './canvas.js';
import * as clipboard from './clipboard.js';
import { acceptDrops, SPREAD } from './drop.js';
import { installHistory, updateHistoryButtons } from './history.js';
import { ElementMenu } from './elementmenu.js';
import { bounds } from './geometry.js';
import { renderInspector } from './inspector.js';
import { Layers } from './layers.js';
import { Selection } from './selection.js';
import { settings, saveSettings, applyTheme, scene, saveScene } from './settings.js';
import { share } from './share.js';
import { Sheets } from './sheets.js';
import { Sync, listen } from './sync.js';
import { TextEditor } from './textedit.js';
import { Tools } from './tools.js';
import { Touch } from './touch.js';
import { installView } from './view.js';

const $ = (id) => document.getElementById(id);
const buttons = { undoButton: $('undo'), redoButton: $('redo') };

const state = { path: null, description: null, revision: null, schema: null, selectAfter: null, reselect: null, stepping: 0 };
/** A phone's layout (upright, or on its side): the app's toolbar, pickers as sheets. */
const compactLayout = window.matchMedia('(max-width: 600px), (max-height: 500px) and (orientation: landscape)');
// The property table, fetched once; the inspector builds its controls from it.
api.schema().then((schema) => { state.schema = schema; showInspector(); }).catch(showError);

const canvas = new Canvas({
  viewport: $('viewport'), stage: $('stage'), image: $('rendering'), detail: $('detail'), gridOverlay: $('grid-overlay'),
});
const layers = new Layers({
  canvas, renderedFrame: (index) => state.description?.elements[index], currentFrame: (index) => selection.elements[index],
});
const selection = new Selection({
  canvas, overlay: $('overlay'), viewport: $('viewport'), guides: $('guides'), layers,
  onGesture: (operations) => commit(operations),
  // While a photo uploads (it may go under elements a gesture names by their places), and
  // from an undo's press until it is shown (a gesture ended after it comes after it).
  holdGestures: () => sync.holding || state.stepping > 0,
  onGestureLost: () => notify('The element was changed or removed (elsewhere, or by an undo) while you moved it: that change was not saved.'),
  onSelect: (indices) => { showInspector(); tools.update(); saveScene({ selection: indices }); },
  onEditText: (index) => {
    // A nudge waiting for the keys to rest is saved first (its save would end the text's layers).
    selection.endNudge();
    const element = selection.elements[index];
    textEditor.edit(element, index, { fontSize: state.description?.type === 'card' ? undefined : element.fontSize });
  },
});
const textEditor = new TextEditor({
  canvas, stage: $('stage'), layers, onCommit: (operations, { added, note }) => {
    if (note) notify(note);
    commit(operations, { selectAdded: added });
  },
});
const tools = new Tools({
  container: $('add-tools'), canvas, stage: $('stage'), overlay: $('overlay'), guides: $('guides'), selection, textEditor,
  onAdd: (operations) => commit(operations, { selectAdded: true }), compact: () => compactLayout.matches,
  onAction: (name) => pick(name),
});
const sheets = new Sheets({
  onSticker: (sticker) => commit([{ verb: 'add', kind: 'sticker', value: sticker.id, at: tools.visibleCentre() }], { selectAdded: true }),
  onFrame: (clip) => { if (selection.selected) commit([{ verb: 'set', index: selection.indices[0], clip }]); },
  onText: ({ text, font, color }) => commit(
    [{ verb: 'add', kind: 'text', value: text, font, fill: color, at: tools.visibleCentre() }], { selectAdded: true }),
});
const menu = new ElementMenu($('element-menu'), $('viewport'));
new Touch({
  viewport: $('viewport'), canvas, selection, layers, isBusy: () => tools.active || textEditor.editing,
  onLongPress: (index, point) => openElementMenu(index, point),
});

/** A picker of the app's toolbar: Photos, Frames, Stickers, Text (on a phone). */
function pick(name) {
  const fonts = state.schema?.properties.find((p) => p.key === 'font')?.suggestions || [];
  const colors = state.schema?.palettes?.textColors || {};
  if (name === 'photos') $('upload').click();
  if (name === 'stickers') sheets.stickers();
  if (name === 'frames' && selection.selected?.kind === 'image') {
    sheets.frames(state.schema?.properties.find((p) => p.key === 'clip')?.options || [], selection.selected.clip);
  }
  if (name === 'text') sheets.text(fonts, colors);
}

/** The element's menu (a long press, a right click): copy, duplicate, paste what was
 * copied, order, delete; on the empty canvas (`index` null) Paste alone, when something
 * was copied: a finger has no Ctrl-V. */
function openElementMenu(index, point) {
  const stored = clipboard.read();
  const pasting = stored || navigator.clipboard?.read ? [['Paste', () => pasteFromSystem(stored)]] : [];
  if (index === null) {
    if (pasting.length) menu.open(point, pasting);
    return;
  }
  if (!selection.isSelected(index)) selection.select(index);
  const indices = selection.indices;
  menu.open(point, [
    ['Copy', () => {
      const payload = clipboard.copied(state.description, indices);
      clipboard.write(payload);
      const one = indices.length === 1 ? state.description.elements[indices[0]] : null;
      clipboard.writeSystem(payload, one?.kind === 'image' ? pictureURL(indices[0], one) : null);
      notify(indices.length > 1 ? `${indices.length} elements copied.` : 'Copied.');
    }],
    ['Duplicate', () => pasteElements(clipboard.copied(state.description, indices))],
    ...pasting,
    ['Bring to front', () => commit([{ verb: 'order', indices, direction: 'front' }])],
    ['Send to back', () => commit([{ verb: 'order', indices, direction: 'back' }])],
    ['Delete', () => commit([{ verb: 'remove', indices }])],
  ]);
}
/** The element at `index` as it shows on the canvas, alone, on nothing: a PNG's URL. */
function pictureURL(index, element) {
  const box = bounds(element);
  const area = [Math.floor(box.x), Math.floor(box.y), Math.ceil(box.width) + 1, Math.ceil(box.height) + 1];
  return api.renderURL(state.path, 'png', { only: index, area: area.join(','), background: 'none', rev: state.revision });
}

/** The menu's Paste: what the system clipboard holds (an image, Easel's own copy by its text,
 * or a text), or the page's stored copy where the system clipboard is out of reach. */
async function pasteFromSystem(stored) {
  try {
    const items = await navigator.clipboard.read();
    const plain = items.find((item) => item.types.includes('text/plain'));
    const text = plain ? (await (await plain.getType('text/plain')).text()).trim() : '';
    // Easel's own copy (its text beside it) pastes as the elements it copied.
    if (stored && text === stored.text) { pasteElements(stored); return; }
    const picture = items.find((item) => item.types.some((t) => t.startsWith('image/')));
    if (picture) {
      const type = picture.types.find((t) => t.startsWith('image/'));
      addImages([new File([await picture.getType(type)], `pasted.${type.split('/')[1]}`, { type })], tools.visibleCentre());
      return;
    }
    if (text) {
      commit([{ verb: 'add', kind: 'text', value: text, at: tools.visibleCentre() }], { selectAdded: true });
      return;
    }
  } catch { /* no permission, or nothing readable: the stored copy */ }
  if (stored) pasteElements(stored);
  else notify('Nothing to paste: copy a picture, a text or an element first.');
}

canvas.onLayout = () => {
  selection.draw();
  $('zoom-level').textContent = `${Math.round(canvas.scale * 100)}%`;
};
const view = installView({ canvas, viewport: $('viewport'), selection, onChange: (where) => { if (state.path) saveScene(where); } });

const sync = new Sync({
  statusElement: $('status'),
  onSaved: (outcome, error, meta = {}) => {
    if (error) { layers.clear(); state.reselect = null; showRefusal(error); return; }
    updateHistoryButtons(buttons, outcome);
    if (meta.selectAdded && outcome.added?.length) state.selectAfter = outcome.added;
    if (outcome.reordered?.length) state.reselect = { revision: outcome.revision, indices: outcome.reordered };
    reload(outcome.revision, { ownSave: true, gesture: meta.gesture, keepsPlaces: meta.keepsPlaces });
  },
  onConflict: (operations) => {
    layers.clear();
    state.pending = operations;
    $('conflict').hidden = false;
    $('conflict-reload').focus();
  },
});

/** Saves a gesture's operations (one undo step); `selectAdded` selects what they add. */
function commit(operations, meta = {}) {
  if (!state.path) return;
  // An arrow-key nudge still waiting for the keys to rest goes first, as it came first.
  selection.endNudge();
  // A preview still waiting to be asked for would show the value after it was saved.
  clearTimeout(state.previewTimer);
  if (state.stepping > 0) return holdUntilStepShown(operations, meta);
  sync.save(operations, {
    ...meta, gesture: layers.generation, keepsPlaces: operations.every((operation) => PLACE_KEEPING.has(operation.verb)),
  });
}

/** An edit made from an undo's or redo's press until it is shown (a Delete, a menu's or the
 * inspector's change, an element added) comes after it, as a gesture ended then does: it
 * waits, in its turn among those gestures, and is then saved for the elements it names
 * where the undo left them, or dropped with a notice when the undo changed or removed one.
 * Sent at once, it went before the undo, which then undid it instead of the step before. */
function holdUntilStepShown(operations, meta) {
  const named = [...new Set(operations.flatMap((operation) => operation.indices
    ?? (operation.index === undefined ? [] : [operation.index])))];
  const began = selection.gestureStart(named);
  const path = state.path;
  const end = () => {
    if (state.stepping > 0) return selection.holdEdit(end);
    if (path !== state.path) return;
    const places = selection.placesNow(named, began);
    if (!places) {
      notify('The element was changed or removed (by an undo, or elsewhere) before your change was saved: that change was not saved.');
      return;
    }
    const place = new Map(named.map((index, i) => [index, places[i]]));
    commit(operations.map((operation) => ({
      ...operation,
      ...(operation.index !== undefined && { index: place.get(operation.index) }),
      ...(operation.indices && { indices: operation.indices.map((index) => place.get(index)) }),
    })), meta);
  };
  selection.holdEdit(end);
}

/** The edits that leave every element where it was in the drawing order. */
const PLACE_KEEPING = new Set(['set', 'move', 'align', 'distribute', 'background']);

/** Loads the document's description and rendering (after a save, or a change elsewhere). */
async function reload(knownRevision, { ownSave = false, gesture, keepsPlaces = false } = {}) {
  if (!state.path) return;
  const path = state.path;
  // Descriptions asked for one after another can come back in another order: one asked for
  // before the one already shown is older than it, and is not shown.
  const ticket = (state.reloadsAsked = (state.reloadsAsked || 0) + 1);
  const savesBefore = sync.saves;
  try {
    const { description, revision, history } = await api.describe(path);
    if (path !== state.path) return;
    if (ticket < (state.reloadShown || 0)) {
      // Not shown; what it would have said about places is not known to the later one.
      selection.order += 1;
      return;
    }
    state.reloadShown = ticket;
    updateHistoryButtons(buttons, history);
    state.description = description;
    state.revision = revision;
    // The page's own save, described with a change made elsewhere since (its event came
    // while the page was saving), is a change elsewhere.
    const elsewhere = !ownSave || (revision !== knownRevision && revision !== sync.revision);
    // The revision to edit from is the one whose elements are shown: a gesture ended before
    // they are is refused as made on an older one (a conflict), never applied to whichever
    // element a change elsewhere put in its element's place. Not while a save is on its
    // way, nor when one was made since this description was asked for (it is older).
    if (elsewhere && !sync.sending && !sync.holding && sync.saves === savesBefore) sync.adopt(revision);
    canvas.show(path, description.canvas, revision);
    // Places are kept only by the page's own save, described as it left it.
    const placesKept = ownSave && keepsPlaces && revision === knownRevision;
    selection.setElements(description.elements, description.canvas, { changedElsewhere: elsewhere, keepsPlaces: placesKept });
    if (state.selectAfter) {
      selection.select(state.selectAfter);
      state.selectAfter = null;
      // What was just added takes the keys (Delete, the arrows), unless a field has them.
      if (!typing(document.activeElement)) $('viewport').focus({ preventScroll: true });
    } else if (state.reselect?.revision === revision) {
      // Ordering moved the selected elements: the server said where they went.
      selection.select(state.reselect.indices);
      state.reselect = null;
    }
    layers.end(revision, gesture);
    // A text being typed in place: found again where the document now has it.
    if (!placesKept) textEditor.documentChanged(description.elements);
    showInspector();
    showTitle(path, description);
  } catch (error) {
    showError(error);
  }
}

function showTitle(path, description) {
  $('title').textContent = `${path} — ${description.type}, ${description.canvas.join('×')}`;
}

function showInspector() {
  if (!state.description) return;
  renderInspector($('inspector'), {
    description: state.description, elements: selection.selectedElements.map((element) => ({ ...element })),
    schema: state.schema, onChange: (operations) => commit(operations),
    onPreview: (indices, operations) => {
      // The frame being typed moves the element's box at once; its picture follows from the server.
      for (const operation of operations) {
        const element = selection.elements[operation.index];
        if (operation.verb !== 'set' || !element) continue;
        for (const key of ['at', 'size', 'rotation']) if (operation[key] !== undefined) element[key] = operation[key];
        selection.placeBox(operation.index);
      }
      clearTimeout(state.previewTimer);
      state.previewTimer = setTimeout(() => layers.preview(state.path, indices, operations), 80);
    },
  });
  // On a phone the inspector is a sheet over the card: it closes from within, too.
  const done = document.createElement('button');
  done.type = 'button';
  done.className = 'compact-only inspector-done';
  done.textContent = 'Done';
  done.addEventListener('click', () => openInspector(false));
  $('inspector').prepend(done);
}

/** Opens or closes the inspector's sheet (a phone's layout; a desktop always shows it). */
function openInspector(open) {
  document.body.classList.toggle('inspector-open', open);
  $('inspector-toggle').setAttribute('aria-expanded', String(open));
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

/** A short note over the canvas (what a paste left out, say). */
function notify(text) {
  const notice = $('notice');
  notice.textContent = text;
  notice.hidden = false;
  clearTimeout(state.noticeTimer);
  state.noticeTimer = setTimeout(() => { notice.hidden = true; }, 6000);
}

async function openDocument(path) {
  selection.endNudge();
  if (path !== state.path) selection.forgetHeldGestures();
  state.path = path;
  // A notice speaks of the document it came from.
  $('notice').hidden = true;
  layers.clear();
  textEditor.finish(false);
  $('browser').hidden = true;
  $('editor').hidden = false;
  document.body.dataset.view = 'editor';
  const restored = scene();
  const here = restored.path === path;
  try {
    const { description, revision, history } = await api.describe(path);
    state.description = description;
    state.revision = revision;
    updateHistoryButtons(buttons, history);
    sync.open(path, revision);
    canvas.show(path, description.canvas, revision);
    canvas.setZoom(here ? restored.zoom : settings.zoom);
    if (here && restored.centre) canvas.centreOn({ x: restored.centre[0], y: restored.centre[1] });
    selection.setElements(description.elements, description.canvas);
    const chosen = here ? [].concat(restored.selection ?? []) : [];
    selection.select(chosen.filter((index) => index < description.elements.length));
    showTitle(path, description);
    document.body.dataset.kind = description.type;
    tools.build(description.type);
    buildExportMenu(path);
    saveScene({ path });
    view.report();
  } catch (error) {
    showError(error);
  }
  $('viewport').focus({ preventScroll: true });
}

function showBrowser() {
  selection.endNudge();
  state.path = null;
  saveScene({ path: null, selection: null, centre: null });
  state.description = null;
  textEditor.finish(false);
  layers.clear();
  $('editor').hidden = true;
  $('browser').hidden = false;
  document.body.dataset.view = 'browser';
  $('title').textContent = '';
  openInspector(false);
  showBrowserMode();
  renderBrowser($('grid'), { carousel: $('carousel'), onError: showError });
}

/** The document browser as a grid or a carousel (a setting, like the app's list selection). */
function showBrowserMode() {
  const carousel = settings.browserMode === 'carousel';
  $('grid').hidden = carousel;
  $('carousel').hidden = !carousel;
  $('mode-list').setAttribute('aria-pressed', String(!carousel));
  $('mode-carousel').setAttribute('aria-pressed', String(carousel));
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
  const path = documentPath(location.hash);
  if (path) openDocument(path);
  else showBrowser();
}

/** The document an address's `#/edit/PATH` names, or null: not a path of the folder's
 * (a `.` or `..` part, an empty one) or not percent-encoding that decodes. */
function documentPath(hash) {
  const match = hash.match(/^#\/edit\/(.+)$/);
  if (!match) return null;
  let path;
  try {
    path = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  return path.split('/').every((part) => part && part !== '.' && part !== '..') ? path : null;
}

// MARK: What comes in

/** Adds image files as elements, one undo step each, the first at `at` (canvas units) and
 * the others spread from it; selects them all. */
async function addImages(files, at) {
  if (!state.path || !files.length) return;
  const path = state.path;
  const count = selection.elements.length;
  const added = [];
  const refused = [];
  for (const [i, file] of files.entries()) {
    // Another document opened meanwhile: the rest are not put into it.
    if (state.path !== path) return;
    const place = [at[0] + i * SPREAD, at[1] + i * SPREAD];
    try {
      // A photo added anywhere but on top of the rest moves those above it up a place.
      // (The elements before it: the ones there were and those added so far, which the
      // editor's own list holds only once they are all in.)
      const before = count + added.length;
      let outcome;
      try {
        outcome = await sync.exclusive((revision) => api.upload(path, file, revision, place), {
          keepsPlaces: (result) => (result.added || []).every((index) => index >= before), showMoved: () => reload(),
        });
      } finally {
        // The gestures ended meanwhile, saved for their elements where the photo left them.
        selection.releaseGestures();
      }
      updateHistoryButtons(buttons, outcome);
      added.push(...(outcome.added || []));
    } catch (error) {
      // A file the server refuses (not an image, too large) is named and the others still
      // go in; only a server out of reach stops the rest.
      if (!error.status) {
        showError(error);
        break;
      }
      refused.push(`${file.name}: ${error.message}`);
    }
  }
  if (refused.length) notify(`Not added: ${refused.join('; ')}`);
  state.selectAfter = added.length ? added : null;
  await reload();
}

/** Pastes what the clipboard carries: images as new image elements, Easel's elements as
 * copies, plain text as a new text. */
function paste(event) {
  if (!state.path || !state.description) return;
  // Easel's own copy first: an image element's copy carries its picture too.
  const payload = clipboard.read(event);
  if (payload && state.schema) {
    event.preventDefault();
    pasteElements(payload);
    return;
  }
  const files = [...(event.clipboardData?.files || [])].filter((file) => file.type.startsWith('image/'));
  if (files.length) {
    event.preventDefault();
    addImages(files, tools.visibleCentre());
    return;
  }
  const text = event.clipboardData?.getData('text/plain')?.trim();
  if (text) {
    event.preventDefault();
    commit([{ verb: 'add', kind: 'text', value: text, at: tools.visibleCentre() }], { selectAdded: true });
  }
}

function pasteElements(payload) {
  const { operations, refused } = clipboard.pasteOperations(payload, state.description, state.schema, canvas.visibleRect());
  if (refused.length) {
    notify(state.description.type === 'card'
      ? `A card holds only images and texts: ${refused.join(', ')} not pasted.`
      : `${refused.join(', ')} cannot be pasted here.`);
  }
  if (operations.length) commit(operations, { selectAdded: true });
}

const typing = (element) => element?.matches?.('input, select, textarea, [contenteditable], [contenteditable] *');
const editing = () => state.path && document.body.dataset.view === 'editor' && !textEditor.editing;

document.addEventListener('copy', (event) => {
  if (!editing() || typing(event.target) || !selection.indices.length) return;
  clipboard.write(clipboard.copied(state.description, selection.indices), event);
});
document.addEventListener('cut', (event) => {
  if (!editing() || typing(event.target) || !selection.indices.length) return;
  const indices = selection.indices;
  clipboard.write(clipboard.copied(state.description, indices), event);
  commit([{ verb: 'remove', indices }]);
});
document.addEventListener('paste', (event) => {
  if (!editing() || typing(event.target)) return;
  paste(event);
});
document.addEventListener('keydown', (event) => {
  if (!editing() || typing(event.target)) return;
  if (tools.key(event)) { event.preventDefault(); return; }
  const modifier = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (modifier && key === 'a') {
    event.preventDefault();
    selection.selectAll();
  } else if (modifier && key === 'd') {
    event.preventDefault();
    if (selection.indices.length) pasteElements(clipboard.copied(state.description, selection.indices));
  } else if (!modifier && !event.altKey && !event.shiftKey && key.length === 1 && tools.shortcut(key)) {
    event.preventDefault();
  }
});
acceptDrops($('viewport'), canvas, {
  onImages: (files, at) => addImages(files, at),
  onText: (text, at) => commit([{ verb: 'add', kind: 'text', value: text, at: at.map((v) => Math.round(v)) }], { selectAdded: true }),
});
$('upload').addEventListener('change', () => {
  const files = [...$('upload').files];
  $('upload').value = '';
  addImages(files, tools.visibleCentre());
});

// MARK: Toolbar and settings

installHistory({
  ...buttons,
  onUndo: () => stepHistory(api.undo),
  onRedo: () => stepHistory(api.redo),
});
$('setting-grid').checked = settings.grid;
$('setting-snap').checked = settings.snap;
$('setting-theme').value = settings.theme;
canvas.showGrid = settings.grid;
$('setting-grid').addEventListener('change', () => { saveSettings({ grid: $('setting-grid').checked }); canvas.showGrid = settings.grid; canvas.layout(); });
$('setting-snap').addEventListener('change', () => saveSettings({ snap: $('setting-snap').checked }));
$('setting-theme').addEventListener('change', () => saveSettings({ theme: $('setting-theme').value }));
applyTheme();

/** Undo or redo (`step`) of the open document, in the order the user made it: after the
 * gestures made before it are saved (an undo sent while a drag's save is on its way would
 * undo the step before the drag, and the drag would then meet a changed document), and
 * before those ended after it, which wait until it is shown and are then saved for their
 * elements where it left them (sent first, one of them was what the undo undid). What it
 * changed is shown, the selection kept only where it still names the same elements (as for
 * a change made elsewhere: `setElements`). */
async function stepHistory(step) {
  if (!state.path) return;
  const path = state.path;
  selection.endNudge();
  state.stepping += 1;
  try {
    await sync.idle();
    if (path !== state.path) return;
    const outcome = await step(path);
    updateHistoryButtons(buttons, outcome);
    await reload();
  } catch (error) {
    showError(error);
  } finally {
    state.stepping -= 1;
    selection.releaseGestures();
  }
}

// The Export and Settings menus close on Escape and on a press outside them (seen first,
// before the canvas or an element's box takes the press for itself).
const openMenus = () => document.querySelectorAll('details.menu[open]');
document.addEventListener('pointerdown', (event) => {
  for (const menu of openMenus()) if (!menu.contains(event.target)) menu.open = false;
}, { capture: true });
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  for (const menu of openMenus()) {
    menu.open = false;
    menu.querySelector('summary')?.focus();
  }
});

$('mode-list').addEventListener('click', () => { saveSettings({ browserMode: 'list' }); showBrowserMode(); });
$('mode-carousel').addEventListener('click', () => { saveSettings({ browserMode: 'carousel' }); showBrowserMode(); });
$('inspector-toggle').addEventListener('click', () => openInspector(!document.body.classList.contains('inspector-open')));
$('share').addEventListener('click', async () => {
  if (!state.path) return;
  try {
    const how = await share(state.path, state.description?.title);
    if (how === 'downloaded') notify('The picture was downloaded (this browser cannot share files).');
  } catch (error) { showError(error); }
});
// A right click on an element opens its menu, as a long press does.
$('viewport').addEventListener('contextmenu', (event) => {
  const box = event.target.closest?.('.box');
  if (!box) return;
  event.preventDefault();
  openElementMenu(Number(box.dataset.index), { x: event.clientX, y: event.clientY });
});

$('new-card').addEventListener('click', async () => {
  try { const created = await api.create('card'); location.hash = `#/edit/${encodeURIComponent(created.path)}`; } catch (error) { showError(error); }
});
$('new-drawing').addEventListener('click', async () => {
  try { const created = await api.create('drawing'); location.hash = `#/edit/${encodeURIComponent(created.path)}`; } catch (error) { showError(error); }
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
  if (event.resync) {
    if (state.path) reload(); else renderBrowser($('grid'), { carousel: $('carousel'), onError: showError });
    return;
  }
  if (state.path && event.path === state.path) {
    if (event.revision && event.revision !== sync.revision && sync.state !== 'saving') reload(event.revision);
  } else if (!state.path) {
    renderBrowser($('grid'), { carousel: $('carousel'), onError: showError });
  }
});

// Leaving the page or hiding the tab: a nudge waiting for the keys to rest is a gesture
// too, ended first; then what is pending is sent, or kept for the next visit.
const leave = () => {
  sync.leaving = true;
  clearTimeout(selection.nudgeTimer);
  selection.endNudge();
  sync.leave();
};
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') leave();
  else sync.leaving = false;
});
window.addEventListener('pagehide', leave);

window.addEventListener('hashchange', route);
// Reopening the page restores the last document (SceneStorage): only when the page opens at its root.
if (!location.hash && scene().path) location.hash = `#/edit/${encodeURIComponent(scene().path)}`;
else route();
