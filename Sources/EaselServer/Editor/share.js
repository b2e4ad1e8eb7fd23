// Share, as the app's share button: the picture at the app's share size (1300x2000 for a
// card) as a PNG file, through the Web Share API where the browser can share files, and
// downloaded where it cannot.

import { rendering } from './api.js';

/** Shares the document at `path` as a PNG named by its `title` (a card named by its id is
 * titled by its first text, as the list shows it), or else by its file's name; says whether
 * it was shared, downloaded or not. */
export async function share(path, title) {
  const name = `${fileName(title) || path.split('/').pop().replace(/\.[^.]*$/, '')}.png`;
  const blob = await rendering(path, 'png', { preset: 'share' });
  const file = new File([blob], name, { type: 'image/png' });
  if (navigator.canShare?.({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: name });
      return 'shared';
    } catch (error) {
      if (error.name === 'AbortError') return 'cancelled';
      // Refused (no user gesture left, say): the download below still gives the picture.
    }
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  return 'downloaded';
}

/** `title` as a file's name: no path separators or control characters, at most 100
 * characters, without a document's extension (a drawing is titled by its file's name);
 * '' when nothing is left. */
function fileName(title) {
  const name = [...String(title || '').replace(/\.(rwcard|drawing)$/i, '').replace(/[\/\\:*?"<>|\u0000-\u001f]/g, ' ')]
    .slice(0, 100).join('').trim();
  return name.replace(/^\.+/, '');
}
