// The service's HTTP API, as the editor uses it. Every failure becomes an ApiError with the
// server's problem document (RFC 9457), so callers can tell a conflict from a bad request.

export class ApiError extends Error {
  /** `retryAfter`: for a busy server's 503, how long it asks to be left alone (ms). */
  constructor(status, problem, retryAfter = null) {
    super(problem?.detail || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.retryAfter = retryAfter;
  }
}

const documentsURL = (path) => '/api/documents/' + path.split('/').map(encodeURIComponent).join('/');

/** How many times what a busy server refused (503) is asked for again: a read, a picture
 * (`pictures.js`), a gesture (`sync.js`). */
export const BUSY_TRIES = 8;

/** How long a busy server (503) asks to be left alone, in milliseconds: its Retry-After
 * (seconds), within 0.5 to 5 s. */
export function retryAfter(response) {
  return 1000 * Math.min(5, Math.max(0.5, Number(response.headers.get('Retry-After')) || 1));
}

export const pause = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** `fetch`, with every failure an ApiError. What a busy server refuses (503) is made again as
 * Retry-After says, a few times: a read (GET) always; a change (an upload, undo, a new
 * document) when the server says it did nothing of it (`nothingDone`: refused before its
 * work began, so sending it again cannot do it twice; one given up at its timeout may
 * still be done). `ownRetries`: the caller sends it again itself (a gesture, `sync.js`). */
async function request(url, options = {}, { ownRetries = false } = {}) {
  const read = (options.method || 'GET') === 'GET';
  for (let attempt = 0; ; attempt += 1) {
    let response;
    try {
      response = await fetch(url, options);
    } catch (error) {
      throw new ApiError(0, { detail: 'the server cannot be reached' });
    }
    const again = response.status === 503 && !ownRetries && attempt < BUSY_TRIES;
    if (again && read) {
      await pause(retryAfter(response));
      continue;
    }
    if (!response.ok) {
      let problem = null;
      try { problem = await response.json(); } catch { /* not JSON */ }
      if (again && problem?.nothingDone === 'true') {
        await pause(retryAfter(response));
        continue;
      }
      throw new ApiError(response.status, problem, response.status === 503 ? retryAfter(response) : null);
    }
    return response;
  }
}

/** The element property table: what the inspector offers for each kind of element. */
export async function schema() {
  return (await request('/api/schema')).json();
}

export async function listDocuments() {
  return (await (await request('/api/documents')).json()).documents;
}

/** The document as `easel info --json` gives it, and its revision (the ETag's first part:
 * `revision-tag`, the tag standing for the rest of the answer). */
export async function describe(path) {
  const response = await request(documentsURL(path), { cache: 'no-cache' });
  return {
    description: await response.json(), revision: (unquote(response.headers.get('ETag')) || '').split('-')[0] || null,
    history: { canUndo: response.headers.get('X-Easel-Can-Undo') === 'true', canRedo: response.headers.get('X-Easel-Can-Redo') === 'true' },
  };
}

export function renderURL(path, format, query = {}) {
  const search = new URLSearchParams(query).toString();
  return `${documentsURL(path)}/render.${format}${search ? '?' + search : ''}`;
}

/** The server's rendering of the document at `path`, as a Blob (asked again while the server is busy). */
export async function rendering(path, format, query = {}) {
  return (await request(renderURL(path, format, query))).blob();
}

/** `POST …/preview.png`: the document as `operations` would make it, not saved. */
export function previewURL(path, query = {}) {
  const search = new URLSearchParams(query).toString();
  return `${documentsURL(path)}/preview.png${search ? '?' + search : ''}`;
}

const json = (body) => ({ 'Content-Type': 'application/json', ...body });

/** Applies operations as one undo step; `revision` guards against a stale copy (412). */
export async function edit(path, operations, revision, { keepalive = false } = {}) {
  const headers = json(revision ? { 'If-Match': `"${revision}"` } : {});
  const response = await request(`${documentsURL(path)}/edits`, {
    method: 'POST', headers, body: JSON.stringify({ operations }), keepalive,
  }, { ownRetries: true });
  return response.json();
}

export async function undo(path) {
  return (await request(`${documentsURL(path)}/undo`, { method: 'POST' })).json();
}

export async function redo(path) {
  return (await request(`${documentsURL(path)}/redo`, { method: 'POST' })).json();
}

export async function create(kind) {
  return (await request('/api/documents', { method: 'POST', headers: json(), body: JSON.stringify({ kind }) })).json();
}

export async function duplicate(path) {
  return (await request(`${documentsURL(path)}/duplicate`, { method: 'POST' })).json();
}

export async function remove(path) {
  await request(documentsURL(path), { method: 'DELETE' });
}

/** Adds an uploaded PNG or JPEG as a new image element (one undo step), centred at `at`
 * (canvas units) when given. */
export async function upload(path, file, revision, at) {
  const headers = { 'Content-Type': file.type || 'application/octet-stream' };
  if (revision) headers['If-Match'] = `"${revision}"`;
  const query = at ? `?at=${at.map((v) => Math.round(v * 100) / 100).join(',')}` : '';
  return (await request(`${documentsURL(path)}/images${query}`, { method: 'POST', headers, body: file })).json();
}

function unquote(etag) {
  return etag ? etag.replace(/^W\//, '').replace(/^"|"$/g, '') : null;
}
