// The inspector: the selected element's frame, colours (with the Cards app's palette
// names), font (the app's picker fonts), clip frame (the app's 11 library shapes), stroke,
// opacity and order; with nothing selected, the document's background. Each change is one
// gesture (one undo step).

// The names of Easel's one table (ShapeNames in EaselDocuments), as the server's element
// descriptions give a clip and its edits take one.
export const CLIP_SHAPES = [
  'circle', 'rectangle', 'rounded-rectangle', 'heart', 'lens', 'chevron', 'cone', 'cloud', 'diamond', 'hexagon', 'octagon',
];
export const APP_FONTS = [
  'San Fransisco', 'Gill Sans', 'AmericanTypewriter', 'Avenir-Heavy', 'Avenir-Book', 'Baskerville-Italic',
  'ChalkboardSE-Regular', 'Chalkduster', 'Cochin-BoldItalic', 'Copperplate', 'GillSans-UltraBold', 'MarkerFelt-Wide',
  'Noteworthy-Bold', 'Verdana-Bold', 'Papyrus', 'PartyLetPlain', 'SavoyeLetPlain', 'SnellRoundhand-Black',
];
// The app's palettes (EaselDocuments' cardsPalette, as hex for the swatches; edits send the
// names): card backgrounds (random1-8) and text colours (appColor1-7).
export const BACKGROUNDS = {
  random1: '#D0B8F0', random2: '#AEE8C8', random3: '#FBB527', random4: '#F2D5E6', random5: '#FF8C2E', random6: '#09AFB2', random7: '#FFFFA8', random8: '#B8E1FF',
};
export const TEXT_COLORS = {
  appColor1: '#3027E7', appColor2: '#00ECF0', appColor3: '#FCB527', appColor4: '#FFFFFF', appColor5: '#000000', appColor6: '#39C879', appColor7: '#FAB5B9',
};

const field = (labelText, input) => {
  const label = document.createElement('label');
  label.append(labelText, input);
  return label;
};

function colorInput(value, onChange, label) {
  const input = document.createElement('input');
  input.type = 'color';
  input.value = (value || '#000000').slice(0, 7);
  input.setAttribute('aria-label', label);
  input.addEventListener('change', () => onChange(input.value.toUpperCase()));
  return input;
}

function swatches(palette, onPick, what) {
  const row = document.createElement('div');
  row.className = 'row';
  for (const [name, hex] of Object.entries(palette)) {
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

/** A colour that may be absent: the picker, and a None button (shown pressed when there is none). */
function optionalColor(what, value, onChange) {
  const row = document.createElement('div');
  row.className = 'row';
  const none = document.createElement('button');
  none.type = 'button';
  none.textContent = 'None';
  none.setAttribute('aria-label', `No ${what.toLowerCase()}`);
  none.setAttribute('aria-pressed', String(!value));
  none.addEventListener('click', () => onChange('none'));
  row.append(colorInput(value, onChange, `${what} colour`), none);
  return field(value ? what : `${what} (none)`, row);
}

function numberInput(value, step, label, onChange) {
  const input = document.createElement('input');
  input.type = 'number';
  input.step = step;
  input.value = Math.round(value * 100) / 100;
  input.setAttribute('aria-label', label);
  input.addEventListener('change', () => { if (input.value !== '' && isFinite(input.value)) onChange(Number(input.value)); });
  return input;
}

export function renderInspector(panel, { description, element, onChange }) {
  panel.replaceChildren();
  const heading = (text) => { const h = document.createElement('h2'); h.textContent = text; panel.append(h); };
  const isCard = description.type === 'card';
  if (!element) {
    heading(isCard ? 'Card' : 'Drawing');
    panel.append(field('Background', colorInput(description.background, (hex) => onChange([{ verb: 'background', color: hex }]), 'Background colour')));
    if (isCard) panel.append(swatches(BACKGROUNDS, (name) => onChange([{ verb: 'background', color: name }]), 'Background'));
    const hint = document.createElement('p');
    hint.textContent = 'Select an element to change it.';
    panel.append(hint);
    return;
  }
  const index = element.index;
  const set = (changes) => onChange([{ verb: 'set', index, ...changes }]);
  heading(`${element.kind} ${index}`);
  const frame = document.createElement('div');
  frame.className = 'row';
  frame.append(
    field('X', numberInput(element.center[0], 1, 'X position', (x) => set({ at: [x, element.center[1]] }))),
    field('Y', numberInput(element.center[1], 1, 'Y position', (y) => set({ at: [element.center[0], y] }))),
    field('Width', numberInput(element.size[0], 1, 'Width', (w) => set({ size: [w, element.size[1]] }))),
    field('Height', numberInput(element.size[1], 1, 'Height', (h) => set({ size: [element.size[0], h] }))),
    field('Rotation', numberInput(element.rotation, 1, 'Rotation in degrees', (r) => set({ rotation: r }))));
  panel.append(frame);

  if (element.kind === 'text') {
    const text = document.createElement('input');
    text.value = element.text || '';
    text.setAttribute('aria-label', 'Text');
    text.addEventListener('change', () => set({ text: text.value }));
    panel.append(field('Text', text));
    const font = document.createElement('select');
    font.setAttribute('aria-label', 'Font');
    const fonts = APP_FONTS.includes(element.font) || !element.font ? APP_FONTS : [element.font, ...APP_FONTS];
    for (const name of fonts) font.append(new Option(name, name, false, name === element.font));
    font.addEventListener('change', () => set({ font: font.value }));
    panel.append(field('Font', font));
    panel.append(field('Colour', colorInput(element.fill, (hex) => set({ color: hex }), 'Text colour')));
    panel.append(swatches(TEXT_COLORS, (name) => set({ color: name }), 'Text colour'));
  } else if (!isCard && element.kind !== 'image' && element.kind !== 'group') {
    panel.append(optionalColor('Fill', element.fill, (value) => set({ fill: value })));
  }
  if (!isCard && element.kind !== 'image' && element.kind !== 'group') {
    panel.append(optionalColor('Stroke', element.stroke, (value) => set({ stroke: value })));
    panel.append(field('Stroke width', numberInput(element.strokeWidth ?? 0, 1, 'Stroke width', (width) => set({ strokeWidth: width }))));
  }
  if (!isCard) {
    const opacity = document.createElement('input');
    opacity.type = 'range';
    opacity.min = '0';
    opacity.max = '1';
    opacity.step = '0.05';
    opacity.value = element.opacity ?? 1;
    opacity.setAttribute('aria-label', 'Opacity');
    opacity.addEventListener('change', () => set({ opacity: Number(opacity.value) }));
    panel.append(field('Opacity', opacity));
  }
  if (element.kind === 'image' || !isCard) {
    heading('Frame');
    const clips = document.createElement('div');
    clips.className = 'clips';
    for (const name of ['none', ...CLIP_SHAPES]) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = name === 'rounded-rectangle' ? 'rounded' : name;
      button.setAttribute('aria-label', `Clip frame ${name}`);
      button.setAttribute('aria-pressed', String((element.clip || 'none') === name));
      button.addEventListener('click', () => set({ clip: name }));
      clips.append(button);
    }
    panel.append(clips);
  }
  heading('Order');
  const order = document.createElement('div');
  order.className = 'row';
  for (const direction of ['front', 'forward', 'backward', 'back']) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = direction;
    button.setAttribute('aria-label', `Move ${direction}`);
    button.addEventListener('click', () => onChange([{ verb: 'order', index, direction }]));
    order.append(button);
  }
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.textContent = 'Delete';
  remove.addEventListener('click', () => onChange([{ verb: 'remove', index }]));
  order.append(remove);
  panel.append(order);
}
