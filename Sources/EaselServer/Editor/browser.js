// The document browser: a grid of the folder's cards and drawings, their thumbnails
// rendered by the server (cached by ETag: each is revalidated, a 304 costs nothing), each
// named by its title (a card named only by its id shows its first text, or its date), new
// card / new drawing, duplicate, delete (after a confirmation). Live: `refresh` runs on
// every change event, so documents made or changed by the CLI appear or update.

import * as api from './api.js';

export async function renderBrowser(list, { onOpen, onError }) {
  let documents;
  try {
    documents = await api.listDocuments();
  } catch (error) {
    onError(error);
    return;
  }
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
      image.src = api.renderURL(document.path, 'png', { preset: 'thumbnail', rev: document.revision });
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
        try { await api.duplicate(document.path); await renderBrowser(list, { onOpen, onError }); } catch (error) { onError(error); }
      });
      const remove = button('Delete', `Delete ${title}`, async () => {
        if (!window.confirm(`Delete ${title}? It is moved to Easel's trash in its state folder.`)) return;
        try { await api.remove(document.path); await renderBrowser(list, { onOpen, onError }); } catch (error) { onError(error); }
      });
      actions.append(duplicate, remove);
      item.append(actions);
    }
    return item;
  });
  list.replaceChildren(...items);
}

function button(text, label, action) {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = text;
  element.setAttribute('aria-label', label);
  element.addEventListener('click', action);
  return element;
}
