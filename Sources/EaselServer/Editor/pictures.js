// Pictures the server draws (the document, its detail, the browser's thumbnails and
// carousel, the pickers' stickers, frames and fonts), shown in <img> elements. A busy
// server refuses a rendering at once (503 with Retry-After) rather than queue it without
// bound; an image element cannot see why its picture failed, so each is asked for again, a
// few times and a little later each time, while the element is on the page and still wants
// that picture. (The live-preview layers are not: a gesture goes on without them.)

/** How many times a picture is asked for again, and the first wait; each wait is longer by as much. */
const TRIES = 5;
const WAIT_MS = 500;

/** Per element: the picture it wants and how often that one has failed. */
const wanted = new WeakMap();

/** Shows the server's picture at `url` in `image` (`image.dataset.url` says which it wants),
 * asking again when it fails to load. */
export function showPicture(image, url) {
  if (!wanted.has(image)) image.addEventListener('error', () => askAgain(image));
  wanted.set(image, { url, failures: 0 });
  image.dataset.url = url;
  image.src = url;
}

/** `image` no longer wants a picture: one it was asked again for is not. */
export function forgetPicture(image) {
  wanted.delete(image);
  delete image.dataset.url;
  image.removeAttribute('src');
}

function askAgain(image) {
  const state = wanted.get(image);
  if (!state || state.failures >= TRIES) return;
  state.failures += 1;
  const { url, failures } = state;
  setTimeout(() => {
    // Not for an element since replaced (the list drawn again) or given another picture.
    if (wanted.get(image) === state && image.isConnected) image.src = anotherSpelling(url, failures);
  }, WAIT_MS * failures);
}

/** The same picture under another URL, so that the browser asks the server again instead of
 * answering from its memory of the failure: `rev` is the server's to ignore (the render
 * routes read it only to know a pinned version; the picker routes not at all). */
function anotherSpelling(url, attempt) {
  if (/[?&]rev=/.test(url)) return url.replace(/([?&]rev=[^&]*)/, `$1~${attempt}`);
  return `${url}${url.includes('?') ? '&' : '?'}rev=~${attempt}`;
}
