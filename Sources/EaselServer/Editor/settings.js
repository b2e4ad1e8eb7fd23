// User settings persist like SwiftUI's AppStorage (grid, snapping, zoom, theme); the scene
// (the last document, its zoom and selection) is restored like SceneStorage when the page
// is opened again.

const SETTINGS = 'easel.settings';
const SCENE = 'easel.scene';

const defaults = { grid: false, snap: false, theme: 'light', zoom: 'fit', browserMode: 'list' };

function read(key, fallback) {
  try { return { ...fallback, ...JSON.parse(localStorage.getItem(key) || '{}') }; } catch { return { ...fallback }; }
}

export const settings = read(SETTINGS, defaults);

export function saveSettings(changes) {
  Object.assign(settings, changes);
  localStorage.setItem(SETTINGS, JSON.stringify(settings));
  applyTheme();
}

export function applyTheme() {
  document.documentElement.dataset.theme = settings.theme;
}

export function scene() {
  return read(SCENE, { path: null, zoom: 'fit', selection: null });
}

export function saveScene(changes) {
  localStorage.setItem(SCENE, JSON.stringify({ ...scene(), ...changes }));
}

/** The grid step in canvas units (snapping rounds positions to it). */
export const GRID = 50;
