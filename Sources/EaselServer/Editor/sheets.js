// The Cards app's pickers, as sheets (a dialog that rises from the bottom on a phone):
// Stickers (Easel's own, in themes; a tap adds one and closes), Frames (the clip shapes
// for the selected image; a tap applies one), and Text (typed in the sheet's field, in a
// picker font shown in its own face and a colour of the app's palette; Return adds it, an
// empty text is not added). The pictures are drawn by the server: the browser has neither
// the stickers nor the fonts.

import { showPicture } from './pictures.js';

const $ = (id) => document.getElementById(id);

function button(content, label, action, pressed) {
  const element = document.createElement('button');
  element.type = 'button';
  if (typeof content === 'string') element.textContent = content; else element.append(...content);
  element.setAttribute('aria-label', label);
  if (pressed !== undefined) element.setAttribute('aria-pressed', String(pressed));
  element.addEventListener('click', action);
  return element;
}

function picture(src, alt = '') {
  const image = new Image();
  image.alt = alt;
  image.loading = 'lazy';
  image.draggable = false;
  showPicture(image, src);
  return image;
}

export class Sheets {
  constructor({ onSticker, onFrame, onText }) {
    Object.assign(this, { onSticker, onFrame, onText });
    this.dialog = $('sheet');
    this.body = $('sheet-body');
    $('sheet-close').addEventListener('click', () => this.close());
    // A press on the backdrop (outside the sheet's box) closes it.
    this.dialog.addEventListener('click', (event) => {
      const box = this.dialog.getBoundingClientRect();
      const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
      if (event.target === this.dialog && !inside) this.close();
    });
  }

  open(title, name) {
    // Each opening counted: a sheet filled after a wait fills only its own opening.
    this.opened = (this.opened || 0) + 1;
    $('sheet-title').textContent = title;
    this.dialog.dataset.sheet = name;
    this.body.replaceChildren();
    if (!this.dialog.open) this.dialog.showModal();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  /** The stickers in their themes; a tap adds one. */
  async stickers() {
    this.open('Stickers', 'stickers');
    const opened = this.opened;
    let themes = [];
    try { themes = (await (await fetch('/api/stickers')).json()).themes; } catch { /* shown empty */ }
    // Closed, or another sheet opened, while the list came: that sheet is left alone.
    if (!this.dialog.open || this.opened !== opened) return;
    const tabs = document.createElement('div');
    tabs.className = 'sheet-tabs';
    tabs.setAttribute('role', 'tablist');
    const grid = document.createElement('div');
    grid.className = 'sticker-grid';
    grid.setAttribute('role', 'tabpanel');
    const show = (theme) => {
      for (const tab of tabs.children) tab.setAttribute('aria-selected', String(tab.textContent === theme.name));
      grid.setAttribute('aria-label', theme.name);
      grid.replaceChildren(...theme.stickers.map((sticker) => button(
        [picture(`/api/stickers/${sticker.id}.png?size=128`)], `Sticker ${sticker.name}`,
        () => { this.close(); this.onSticker(sticker); })));
    };
    for (const theme of themes) {
      const tab = button(theme.name, theme.name, () => show(theme));
      tab.setAttribute('role', 'tab');
      tabs.append(tab);
    }
    this.body.append(tabs, grid);
    if (themes.length) show(themes[0]);
  }

  /** The clip shapes for an image, `current` pressed; a tap applies one. */
  frames(names, current) {
    this.open('Frames', 'frames');
    const grid = document.createElement('div');
    grid.className = 'frame-grid';
    // Each named in words under its shape ('rounded-rectangle' reads 'Rounded rectangle');
    // no frame is an empty dashed square where the others have their shape.
    const label = (name) => name.charAt(0).toUpperCase() + name.slice(1).replace(/-/g, ' ');
    for (const name of ['none', ...names.filter((n) => n !== 'none')]) {
      const shape = name === 'none' ? Object.assign(document.createElement('span'), { className: 'frame-none' })
        : picture(`/api/clip-samples/${name}.png?size=96`);
      grid.append(button([shape, label(name)], `Frame ${name}`, () => { this.close(); this.onFrame(name); }, (current || 'none') === name));
    }
    this.body.append(grid);
  }

  /** A new text: typed in the field, in a picker font and a palette colour. */
  text(fonts, colors, { font = 'Gill Sans', color = null } = {}) {
    this.open('Text', 'text');
    const chosen = { font, color: color || Object.values(colors)[4] || '#000000' };
    const field = document.createElement('input');
    field.type = 'text';
    field.placeholder = 'Enter text';
    field.setAttribute('aria-label', 'Enter text');
    field.enterKeyHint = 'done';
    const fontList = document.createElement('div');
    fontList.className = 'font-list';
    fontList.setAttribute('role', 'group');
    fontList.setAttribute('aria-label', 'Font');
    for (const name of fonts) {
      fontList.append(button([picture(`/api/font-samples/${encodeURIComponent(name)}.png?height=40`, name)], `Font ${name}`, (event) => {
        chosen.font = name;
        for (const other of fontList.children) other.setAttribute('aria-pressed', String(other === event.currentTarget));
      }, name === chosen.font));
    }
    const swatches = document.createElement('div');
    swatches.className = 'row';
    swatches.setAttribute('role', 'group');
    swatches.setAttribute('aria-label', 'Colour');
    for (const [name, hex] of Object.entries(colors).sort()) {
      const swatch = button('', `Colour ${name}`, (event) => {
        chosen.color = name;
        for (const other of swatches.children) other.setAttribute('aria-pressed', String(other === event.currentTarget));
      }, hex === chosen.color || name === chosen.color);
      swatch.className = 'swatch';
      swatch.style.background = hex;
      swatches.append(swatch);
    }
    const add = button('Add text', 'Add the text', () => commit());
    const commit = () => {
      const words = field.value.trim();
      this.close();
      if (words) this.onText({ text: words, font: chosen.font, color: chosen.color });
    };
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') { event.preventDefault(); commit(); }
    });
    this.body.append(field, fontList, swatches, add);
    field.focus();
  }
}
