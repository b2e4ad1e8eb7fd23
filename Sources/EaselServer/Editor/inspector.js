// The inspector, built from the server's property table (GET /api/schema): for the selected
// element, a control for each property its kind has (the schema lists, per property, the
// card and drawing kinds that have it), grouped by the table's sections; the Cards app's
// palettes as swatches; order and delete. For several elements: align, distribute, order
// and delete, each one undo step for all of them. With nothing selected, the document's
// background. Each change is one gesture (one undo step); while a value is being typed or
// dragged, `onPreview` shows it without saving. No property is named here: a property
// added to the table appears in the inspector by its type.

const SECTION_TITLES = { frame: 'Frame', style: 'Style', clip: 'Clip frame', text: 'Text', shape: 'Shape', shadow: 'Shadow', label: 'Label' };

const field = (labelText, input) => {
  const label = document.createElement('label');
  label.append(labelText, input);
  return label;
};

/** A caption over controls that have labels of their own (a label may not hold labels). */
const group = (captionText, content) => {
  const box = document.createElement('div');
  box.className = 'pair';
  const caption = document.createElement('span');
  caption.textContent = captionText;
  box.append(caption, content);
  return box;
};

const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function colorInput(value, onChange, label, onPreview) {
  const input = document.createElement('input');
  input.type = 'color';
  input.value = (value || '#000000').slice(0, 7);
  input.setAttribute('aria-label', label);
  input.addEventListener('change', () => onChange(input.value.toUpperCase()));
  if (onPreview) input.addEventListener('input', () => onPreview(input.value.toUpperCase()));
  return input;
}

function swatches(palette, onPick, what) {
  const row = document.createElement('div');
  row.className = 'row';
  for (const [name, hex] of Object.entries(palette || {}).sort()) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'swatch';
    button.style.background = hex;
    button.title = name;
    button.setAttribute('aria-label', `${what} ${name}`);
    button.addEventListener('click', () => onPick(name));
    row.append(button);
  }
  return row;
}

function numberInput(value, property, label, onChange, onPreview) {
  const input = document.createElement('input');
  input.type = 'number';
  input.step = property.type === 'integer' ? '1' : 'any';
  if (property.min !== undefined) input.min = property.min;
  if (property.max !== undefined) input.max = property.max;
  if (value !== undefined && value !== null) input.value = Math.round(value * 100) / 100;
  input.setAttribute('aria-label', label);
  input.title = property.help;
  const shown = input.value;
  const readable = () => input.value !== '' && isFinite(input.value);
  const read = (then) => { if (readable()) then(Number(input.value)); };
  input.addEventListener('change', () => {
    if (readable()) { onChange(Number(input.value)); return; }
    // Emptied or not a number: nothing is saved, and the field and the element's box go
    // back to the value the document holds (what was typed before may be previewed).
    input.value = shown;
    if (onPreview && value !== undefined && value !== null) onPreview(value);
  });
  if (onPreview) input.addEventListener('input', () => read(onPreview));
  return input;
}

/** Two numbers side by side: a point's X and Y, a size's width and height. */
function pairInput(value, property, names, onChange, onPreview) {
  const row = document.createElement('div');
  row.className = 'row';
  // What the document holds, and what this control has saved since: a Y saved before the
  // reload of an X just saved carries the new X, not the one shown when the panel was built.
  const current = [...(value || [0, 0])];
  const title = capitalised(property.label);
  const with_ = (i, number) => { const next = [...current]; next[i] = number; return next; };
  names.forEach((name, i) => {
    const input = numberInput(current[i], { ...property, min: undefined }, `${title} ${name}`,
      (number) => { current[i] = number; onChange([...current]); }, (number) => onPreview(with_(i, number)));
    row.append(field(name, input));
  });
  return row;
}

/** The control for one property, by its type; `set` sends `{key: value}`. */
function control(property, value, { isCard, palettes, set, preview }) {
  const title = capitalised(property.label);
  const send = (v) => set({ [property.key]: v });
  const show = (v) => preview({ [property.key]: v });
  switch (property.type) {
    case 'point':
      return group(title, pairInput(value, property, property.key === 'at' ? ['X', 'Y'] : ['DX', 'DY'], send, show));
    case 'size':
      return group(title, pairInput(value, property, ['Width', 'Height'], send, show));
    case 'number':
    case 'integer': {
      if (property.type === 'number' && property.min === 0 && property.max === 1) {
        const slider = document.createElement('input');
        slider.type = 'range';
        slider.min = '0';
        slider.max = '1';
        slider.step = '0.05';
        slider.value = value ?? 1;
        slider.setAttribute('aria-label', title);
        slider.title = property.help;
        slider.addEventListener('change', () => send(Number(slider.value)));
        slider.addEventListener('input', () => show(Number(slider.value)));
        return field(title, slider);
      }
      return field(title, numberInput(value, property, title, send, show));
    }
    case 'color': {
      const row = document.createElement('div');
      row.className = 'row';
      row.append(colorInput(value, send, `${title} colour`, show));
      // A card's colours are never none (the app stores a text's colour always).
      if (property.allowsNone && !isCard) {
        const none = document.createElement('button');
        none.type = 'button';
        none.textContent = 'None';
        none.setAttribute('aria-label', `No ${property.label}`);
        none.setAttribute('aria-pressed', String(!value));
        none.addEventListener('click', () => send('none'));
        row.append(none);
      }
      const wrapper = document.createElement('div');
      wrapper.append(field(value || !property.allowsNone || isCard ? title : `${title} (none)`, row));
      // On a card, colours come from the app's text palette.
      if (isCard) wrapper.append(swatches(palettes.textColors, send, `${title} colour`));
      return wrapper;
    }
    case 'choice': {
      const select = document.createElement('select');
      select.setAttribute('aria-label', title);
      for (const name of property.options) select.append(new Option(name, name, false, name === value));
      select.addEventListener('change', () => send(select.value));
      return field(title, select);
    }
    case 'clip': {
      const clips = document.createElement('div');
      clips.className = 'clips';
      for (const name of ['none', ...property.options.filter((n) => n !== 'none')]) {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = name === 'rounded-rectangle' ? 'rounded' : name;
        button.setAttribute('aria-label', `Clip frame ${name}`);
        button.setAttribute('aria-pressed', String((value || 'none') === name));
        button.addEventListener('click', () => send(name));
        clips.append(button);
      }
      return clips;
    }
    case 'lengths': {
      const input = document.createElement('input');
      input.value = (value || []).join(',');
      input.placeholder = 'solid';
      input.setAttribute('aria-label', title);
      input.title = property.help;
      input.addEventListener('change', () => send(input.value.trim() === '' ? 'none' : input.value));
      return field(title, input);
    }
    default: {
      if (property.suggestions) {
        const select = document.createElement('select');
        select.setAttribute('aria-label', title);
        const names = !value || property.suggestions.includes(value) ? property.suggestions : [value, ...property.suggestions];
        for (const name of names) select.append(new Option(name, name, false, name === value));
        select.addEventListener('change', () => send(select.value));
        return field(title, select);
      }
      const input = document.createElement('input');
      input.value = value || '';
      input.setAttribute('aria-label', title);
      input.title = property.help;
      input.addEventListener('change', () => send(input.value));
      return field(title, input);
    }
  }
}

export function renderInspector(panel, { description, elements, schema, onChange, onPreview }) {
  const typing = typedField(panel);
  panel.replaceChildren();
  build(panel, { description, elements, schema, onChange, onPreview });
  // What each field shows, and (below) what it saved: a value different from both is one
  // being typed.
  for (const input of panel.querySelectorAll('input, select')) input.dataset.shown = input.value;
  panel.onchange = (event) => { event.target.dataset.shown = event.target.value; };
  if (typing) resumeTyping(panel, typing);
}

/** The field of `panel` that has the keyboard, with what is typed in it when that is not
 * what the panel showed (the panel is about to be built again: a save's reload, a change
 * made elsewhere, arrives while the person types). */
function typedField(panel) {
  const active = document.activeElement;
  if (!active || !panel.contains(active) || !active.matches('input, select')) return null;
  const typed = active.value !== active.dataset.shown ? active.value : null;
  let caret = null;
  try { caret = [active.selectionStart, active.selectionEnd]; } catch { /* a number field has none */ }
  return { heading: panel.querySelector('h2')?.textContent, label: active.getAttribute('aria-label'), typed, caret };
}

/** Gives the keyboard back to the field of the same name in the panel built again for the
 * same element, with what was being typed in it. */
function resumeTyping(panel, { heading, label, typed, caret }) {
  if (panel.querySelector('h2')?.textContent !== heading) return;
  const target = label && panel.querySelector(`[aria-label="${CSS.escape(label)}"]`);
  if (!target) return;
  // Focused first: what is typed then counts as a change, saved when the field is left.
  target.focus({ preventScroll: true });
  if (typed !== null) target.value = typed;
  if (caret && caret[0] !== null) { try { target.setSelectionRange(caret[0], caret[1]); } catch { /* not a text field */ } }
}

function build(panel, { description, elements, schema, onChange, onPreview }) {
  const heading = (text) => { const h = document.createElement('h2'); h.textContent = text; panel.append(h); };
  const isCard = description.type === 'card';
  const palettes = schema?.palettes || {};
  if (!elements.length) {
    heading(isCard ? 'Card' : 'Drawing');
    panel.append(field('Background', colorInput(description.background, (hex) => onChange([{ verb: 'background', color: hex }]), 'Background colour')));
    if (isCard) panel.append(swatches(palettes.cardBackgrounds, (name) => onChange([{ verb: 'background', color: name }]), 'Background'));
    const hint = document.createElement('p');
    // A finger has no Shift key and its drag on the empty canvas pans: say what it can do.
    hint.textContent = matchMedia('(pointer: coarse)').matches
      ? 'Tap an element to change it; press and hold it for more.'
      : 'Select an element to change it. Shift-click or drag around several.';
    panel.append(hint);
    return;
  }
  if (elements.length > 1) {
    arrange(panel, heading, elements.map((e) => e.index), onChange);
    return;
  }
  const element = elements[0];
  const index = element.index;
  const set = (changes) => onChange([{ verb: 'set', index, ...changes }]);
  const preview = (changes) => onPreview?.([index], [{ verb: 'set', index, ...changes }]);
  heading(`${element.kind} ${index}`);
  const properties = (schema?.properties || []).filter((p) => (isCard ? p.card : p.drawing).includes(element.kind));
  let section = null;
  for (const property of properties) {
    if (property.section !== section) {
      section = property.section;
      if (section !== 'frame') heading(SECTION_TITLES[section] || capitalised(section));
    }
    const shown = control(property, element[property.key], { isCard, palettes, set, preview });
    shown.dataset.key = property.key;
    panel.append(shown);
  }
  heading('Order');
  const order = orderRow([index], (direction) => {
    // A card draws its images under its texts (as the Cards app does): the topmost image
    // goes no further forward, and saying so beats a button that does nothing.
    const images = description.elements.filter((e) => e.kind === 'image').length;
    if (isCard && element.kind === 'image' && index === images - 1 && (direction === 'front' || direction === 'forward')) {
      panel.querySelector('.note.order')?.remove();
      const note = document.createElement('p');
      note.className = 'note order';
      note.setAttribute('role', 'status');
      note.textContent = 'A card keeps its images under its texts: this is already the frontmost image.';
      order.after(note);
      return;
    }
    onChange([{ verb: 'order', index, direction }]);
  }, () => onChange([{ verb: 'remove', index }]));
  panel.append(order);
}

/** The order buttons and Delete, for the elements at `indices`. */
function orderRow(indices, onOrder, onDelete) {
  const order = document.createElement('div');
  order.className = 'row';
  for (const direction of ['front', 'forward', 'backward', 'back']) {
    order.append(button(direction, `Move ${direction}`, () => onOrder(direction)));
  }
  order.append(button('Delete', indices.length > 1 ? `Delete ${indices.length} elements` : 'Delete', onDelete));
  return order;
}

function button(text, label, action, disabled = false) {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = text;
  element.setAttribute('aria-label', label);
  element.disabled = disabled;
  element.addEventListener('click', action);
  return element;
}

/** Several elements: align them (on their edges or centres), distribute them (three or
 * more), order and delete them, each one undo step for all. */
function arrange(panel, heading, indices, onChange) {
  heading(`${indices.length} elements`);
  heading('Align');
  const align = document.createElement('div');
  align.className = 'row arrange';
  const edges = [['left', 'Left'], ['center', 'Centre'], ['right', 'Right'], ['top', 'Top'], ['middle', 'Middle'], ['bottom', 'Bottom']];
  for (const [edge, label] of edges) {
    align.append(button(label, `Align ${label.toLowerCase()}`, () => onChange([{ verb: 'align', indices, edge }])));
  }
  panel.append(align);
  heading('Distribute');
  const distribute = document.createElement('div');
  distribute.className = 'row arrange';
  for (const [axis, label] of [['horizontal', 'Horizontally'], ['vertical', 'Vertically']]) {
    distribute.append(button(label, `Distribute ${axis}ly`, () => onChange([{ verb: 'distribute', indices, axis }]), indices.length < 3));
  }
  panel.append(distribute);
  heading('Order');
  panel.append(orderRow(indices, (direction) => onChange([{ verb: 'order', indices, direction }]),
    () => onChange([{ verb: 'remove', indices }])));
}
