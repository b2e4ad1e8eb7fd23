// Typing a text on the canvas, where it goes: a new text starts as a field at the point
// it is placed, an existing one is edited in place (a double click, or Enter on it). Enter
// or leaving the field keeps the text; Escape forgets the typing. A new text is added only
// when something was typed, and a text emptied is removed: an empty text is dropped, as the
// Cards app drops it. While an existing text is edited the picture shows the card without
// it (layers.js), so the field is not read over the old words.
//
// A change made elsewhere while a text is edited (the CLI, another page) may move the text
// to another place in the drawing order, or change or remove it: the typing goes to the
// text where it is now, or, when it is no longer there as it was, becomes a new text (the
// words typed are not lost, and no other element is overwritten).

import { findAgain } from './selection.js';

export class TextEditor {
  constructor({ canvas, stage, layers, onCommit }) {
    Object.assign(this, { canvas, stage, layers, onCommit });
    this.field = null;
  }

  get editing() {
    return this.field !== null;
  }

  /** Starts a new text at `at` (canvas units), in `color` at about `fontSize` units. */
  create(at, { color = '#000000', fontSize = 200 } = {}) {
    this.open({ at, size: null, rotation: 0, text: '', index: null, color, fontSize });
  }

  /** Edits the text element `element` (a description) at `index`. */
  edit(element, index, { fontSize } = {}) {
    // A card's text is drawn as large as fits its frame (at most 200 units).
    const size = fontSize ?? Math.min(200, element.size[1] * 0.8);
    this.layers.begin([index], { alone: false });
    this.open({ ...element, index, color: element.fill || '#000000', fontSize: size }, element);
  }

  /** The document now has `elements` (a reload): an existing text being edited is found
   * again where it is, and the picture shown without it; gone or changed, the typing will
   * be a new text. */
  documentChanged(elements) {
    const target = this.target;
    if (!this.field || !target.element) return;
    const found = findAgain(target.element, target.index, elements);
    if (found === null) {
      Object.assign(target, { index: null, element: null, lost: true });
      this.field.setAttribute('aria-label', 'New text');
      this.layers.end(null);
      return;
    }
    if (found !== target.index || !this.layers.active) this.layers.begin([found], { alone: false });
    target.index = found;
  }

  open({ at, size, rotation, text, index, color, fontSize }, element = null) {
    this.finish(false);
    const scale = this.canvas.scale;
    const field = document.createElement('div');
    field.className = 'text-field';
    field.contentEditable = 'plaintext-only';
    field.setAttribute('role', 'textbox');
    field.setAttribute('aria-label', index === null ? 'New text' : `Text ${index}`);
    field.spellcheck = false;
    field.textContent = text;
    Object.assign(field.style, {
      left: `${at[0] * scale}px`, top: `${at[1] * scale}px`, color,
      fontSize: `${Math.max(8, fontSize * scale)}px`, transform: `translate(-50%, -50%) rotate(${rotation || 0}deg)`,
      minWidth: size ? `${size[0] * scale}px` : '2ch',
    });
    this.stage.append(field);
    this.field = field;
    this.target = { index, original: text, at, element: element && { ...element } };
    field.addEventListener('keydown', (event) => {
      event.stopPropagation();
      if (event.key === 'Enter' && !event.shiftKey) { event.preventDefault(); this.finish(true); }
      if (event.key === 'Escape') { event.preventDefault(); this.finish(false); }
    });
    field.addEventListener('pointerdown', (event) => event.stopPropagation());
    field.addEventListener('blur', () => this.finish(true));
    field.focus();
    // The caret at the end of what is there.
    const range = document.createRange();
    range.selectNodeContents(field);
    range.collapse(false);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  /** Ends the editing: `keep` sends what was typed (an add, a change, or a removal). */
  finish(keep) {
    const field = this.field;
    if (!field) return;
    this.field = null;
    const text = field.textContent.replace(/\s*\n\s*/g, ' ').trim();
    field.remove();
    const { index, original, at, lost } = this.target;
    let operations = [];
    if (keep && index === null && text && !(lost && text === original)) {
      operations = [{ verb: 'add', kind: 'text', value: text, at: at.map((v) => Math.round(v * 100) / 100) }];
    } else if (keep && index !== null && text !== original) {
      operations = text ? [{ verb: 'set', index, text }] : [{ verb: 'remove', index }];
    }
    if (index !== null && !operations.length) this.layers.end(null);
    const note = lost && operations.length
      ? 'The text was changed or removed elsewhere while you typed: your words are a new text.' : null;
    if (operations.length) this.onCommit(operations, { added: index === null, note });
  }
}
