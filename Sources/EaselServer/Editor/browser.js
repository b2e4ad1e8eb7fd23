// The document browser, as the app's card list: the folder's cards and drawings, newest
// first, as a grid of thumbnails that fits the screen or as a carousel of one large card at
// a time that a finger swipes through; rendered by the server (cached by ETag: each is
// revalidated, a 304 costs nothing), each named by its title (a card named only by its id
// shows its first text, or its date); new card / new drawing, duplicate, delete (after a
// confirmation; a card's photos that only it uses go with it). Live: it is drawn again on
// every change event, so documents made or changed by the CLI appear or update.

import * as api from './api.js';
import { showPicture } from './pictures.js';

/** The documents newest first (by when they were last saved), then by path. */
function newestFirst(documents) {
  return [...documents].sort((a, b) => (b.modified || '').localeCompare(a.modified || '') || a.path.localeCompare(b.path));
}

export async function renderBrowser(list, { carousel, onOpen, onError }) {
  let documents;
  try {
    documents = newestFirst(await api.listDocuments());
  } catch (error) {
    onError(error);
    return;
  }
  if (carousel) renderCarousel(carousel, documents);
  const items = documents.map((document) => {
    const item = window.document.createElement('li');
    item.dataset.path = document.path;
    const link = window.document.createElement('a');
    const title = document.title || document.path;
    link.className = 'open';
    link.href = `#/edit/${encodeURIComponent(document.path)}`;
    link.setAttribute('aria-label', `Open ${title}`);
    link.title = document.path;
    if (!document.problem) {
      const image = new Image();
      image.alt = `${document.kind} ${document.path}`;
      image.loading = 'lazy';
      // Each revision is its own URL: a changed document loads anew, an unchanged one is
      // revalidated by ETag (a 304).
      showPicture(image, api.renderURL(document.path, 'png', { preset: 'thumbnail', rev: document.revision }));
      image.dataset.revision = document.revision;
      link.append(image);
    }
    const name = window.document.createElement('span');
    name.className = 'name';
    name.textContent = title;
    link.append(name);
    item.append(link);
    if (document.problem) {
      const problem = window.document.createElement('span');
      problem.className = 'problem';
      problem.textContent = document.problem;
      item.append(problem);
    } else {
      const actions = window.document.createElement('div');
      actions.className = 'actions';
      const duplicate = button('Duplicate', `Duplicate ${title}`, async () => {
        try { await api.duplicate(document.path); await renderBrowser(list, { carousel, onOpen, onError }); } catch (error) { onError(error); }
      });
      const remove = button('Delete', `Delete ${title}`, async () => {
        if (!window.confirm(`Delete ${title}? The file is kept in Easel's trash on the server.`)) return;
        try { await api.remove(document.path); await renderBrowser(list, { carousel, onOpen, onError }); } catch (error) { onError(error); }
      });
      actions.append(duplicate, remove);
      item.append(actions);
    }
    return item;
  });
  // An empty folder shows the way to its first card, as the app's empty list does.
  if (!items.length) items.push(emptyFolder());
  list.replaceChildren(...items);
}

/** What an empty folder shows: a large "+" that makes a new card. */
function emptyFolder() {
  const item = window.document.createElement('li');
  item.className = 'empty';
  const make = button('+', 'New card', () => window.document.getElementById('new-card').click());
  make.className = 'empty-new';
  const words = window.document.createElement('span');
  words.className = 'name';
  words.textContent = 'No cards yet: make one';
  item.append(make, words);
  return item;
}

/** One large card at a time, swiped through (the app's carousel); a tap opens it. */
function renderCarousel(list, documents) {
  const shown = documents.filter((document) => !document.problem);
  if (!shown.length) {
    list.replaceChildren(emptyFolder());
    return;
  }
  list.replaceChildren(...shown.map((document) => {
    const item = window.document.createElement('li');
    item.dataset.path = document.path;
    const link = window.document.createElement('a');
    link.className = 'open';
    link.href = `#/edit/${encodeURIComponent(document.path)}`;
    const title = document.title || document.path;
    link.setAttribute('aria-label', `Open ${title}`);
    const image = new Image();
    image.alt = `${document.kind} ${title}`;
    image.loading = 'lazy';
    showPicture(image, api.renderURL(document.path, 'png', { width: 650, rev: document.revision }));
    const name = window.document.createElement('span');
    name.className = 'name';
    name.textContent = title;
    link.append(image);
    item.append(link, name);
    return item;
  }));
}

function button(text, label, action) {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = text;
  element.setAttribute('aria-label', label);
  element.addEventListener('click', action);
  return element;
}
