// Pictures the server draws (the document, its detail, the browser's thumbnails and
// carousel, the pickers' stickers, frames and fonts), shown in <img> elements. A busy
// server refuses a rendering at once (503 with Retry-After) rather than queue it without
// bound; an image element cannot see why its picture failed, so each is asked for again, a
// few times and a little later each time, while the element is on the page and still wants
// that picture; after the last, once more when the person comes back to the page. (The
// live-preview layers are not: a gesture goes on without them.)

import { BUSY_TRIES } from './api.js';

/** The first wait before a picture is asked for again; each is longer by as much, up to
 * `LONGEST_WAIT_MS`, and a quarter shorter or longer at random, so that pictures refused
 * together (a list's thumbnails) do not all come back together to be refused again. */
const WAIT_MS = 500;
const LONGEST_WAIT_MS = 2500;

/** Per element: the picture it wants and how often that one has failed. */
const wanted = new WeakMap();
/** The elements whose failures are listened to (once each, whatever they want since). */
const listening = new WeakSet();
/** The elements whose picture failed every try: asked for again, with as many tries, when
 * the person comes back to the page (it gains focus or shows again) or the network does. */
const givenUp = new Set();

function askAgainForTheGivenUp() {
  if (document.visibilityState === 'hidden') return;
  for (const image of givenUp) {
    const state = wanted.get(image);
    if (state && image.isConnected) {
      state.failures = 0;
      state.rounds = (state.rounds || 0) + 1;
      image.src = anotherSpelling(state.url, `${state.rounds}.0`);
    }
  }
  givenUp.clear();
}
window.addEventListener('focus', askAgainForTheGivenUp);
window.addEventListener('online', askAgainForTheGivenUp);
document.addEventListener('visibilitychange', askAgainForTheGivenUp);

/** Shows the server's picture at `url` in `image` (`image.dataset.url` says which it wants),
 * asking again when it fails to load. */
export function showPicture(image, url) {
  if (!listening.has(image)) {
    listening.add(image);
    image.addEventListener('error', () => askAgain(image));
  }
  wanted.set(image, { url, failures: 0 });
  image.dataset.url = url;
  image.src = url;
}

/** `image` no longer wants a picture: one it was asked again for is not. */
export function forgetPicture(image) {
  wanted.delete(image);
  givenUp.delete(image);
  delete image.dataset.url;
  image.removeAttribute('src');
}

function askAgain(image) {
  const state = wanted.get(image);
  if (!state) return;
  if (state.failures >= BUSY_TRIES) {
    for (const gone of givenUp) if (!gone.isConnected) givenUp.delete(gone);
    givenUp.add(image);
    return;
  }
  state.failures += 1;
  const { url, failures } = state;
  const wait = Math.min(WAIT_MS * failures, LONGEST_WAIT_MS) * (0.75 + Math.random() / 2);
  setTimeout(() => {
    // Not for an element since replaced (the list drawn again) or given another picture.
    // Each round of tries (`rounds`: one more each time the page is come back to) spells its
    // URLs anew: the browser remembers the failures of the last round's.
    if (wanted.get(image) === state && image.isConnected) image.src = anotherSpelling(url, `${state.rounds || 0}.${failures}`);
  }, wait);
}

/** The same picture under another URL, so that the browser asks the server again instead of
 * answering from its memory of the failure: `rev` is the server's to ignore (the render
 * routes read it only to know a pinned version; the picker routes not at all). */
function anotherSpelling(url, attempt) {
  if (/[?&]rev=/.test(url)) return url.replace(/([?&]rev=[^&]*)/, `$1~${attempt}`);
  return `${url}${url.includes('?') ? '&' : '?'}rev=~${attempt}`;
}
