// Saving as the seeds describe: each gesture is one request (one undo step) sent when the
// gesture ends, in order, each guarded by the revision the editor last saw. The indicator
// says Saved, Saving, Offline, Conflict, or Not saved when the server refused the last edit
// (its message is shown by `onSaved`); it says Saved only when the server said so. A stale revision is never overwritten: the
// conflict dialog offers to reload, or to save the change as a copy. Leaving the page or
// hiding the tab sends what is pending (keepalive requests outlive the page).

import * as api from './api.js';

export class Sync {
  constructor({ statusElement, onSaved, onConflict }) {
    this.status = statusElement;
    this.onSaved = onSaved;
    this.onConflict = onConflict;
    this.path = null;
    this.revision = null;
    this.queue = [];
    this.sending = false;
    this.leaving = false;
    this.setState('saved');
    const flush = () => { if (document.visibilityState === 'hidden' || !document.hasFocus()) this.flush({ keepalive: true }); };
    document.addEventListener('visibilitychange', flush);
    window.addEventListener('pagehide', () => this.flush({ keepalive: true }));
  }

  open(path, revision) {
    this.path = path;
    this.revision = revision;
    this.queue = [];
    this.setState('saved');
  }

  setState(state) {
    const words = { saved: 'Saved', saving: 'Saving…', offline: 'Offline', conflict: 'Conflict', refused: 'Not saved' };
    this.state = state;
    this.status.textContent = words[state];
    this.status.dataset.state = state;
  }

  /** Queues one gesture's operations; consecutive gestures are sent one after another.
   * `meta` comes back with the outcome (what to select once it is saved). */
  save(operations, meta = {}) {
    if (!operations.length || this.state === 'conflict') return;
    this.queue.push({ operations, meta });
    this.refused = null;
    this.setState('saving');
    this.pump();
  }

  async pump() {
    if (this.sending) return;
    this.sending = true;
    while (this.queue.length && this.state !== 'conflict') {
      const { operations, meta } = this.queue[0];
      try {
        // While the page is being left, requests are keepalive: they outlive the page.
        const outcome = await api.edit(this.path, operations, this.revision, { keepalive: this.leaving });
        this.queue.shift();
        this.revision = outcome.revision;
        this.onSaved(outcome, null, meta);
      } catch (error) {
        if (error.status === 412 || error.status === 409) {
          this.setState('conflict');
          this.onConflict(this.queue.splice(0).map((item) => item.operations), error.problem.currentRevision);
        } else if (error.status === 0) {
          this.setState('offline');
          await new Promise((resolve) => setTimeout(resolve, 2000));
          continue;
        } else {
          this.queue.shift();
          this.refused = error;
          this.onSaved(null, error, meta);
        }
      }
    }
    this.sending = false;
    if (!this.queue.length && this.state !== 'conflict') this.setState(this.refused ? 'refused' : 'saved');
  }

  /** Sends what is pending now (leaving the page, hiding the tab). */
  flush({ keepalive = false } = {}) {
    if (!this.queue.length || this.sending) return;
    const operations = this.queue.splice(0).flatMap((item) => item.operations);
    api.edit(this.path, operations, this.revision, { keepalive }).then((outcome) => {
      this.revision = outcome.revision;
      this.onSaved(outcome);
      this.setState('saved');
    }).catch(() => this.setState('offline'));
  }

  /** Another program changed the document: its revision is the one to edit from now on. */
  adopt(revision) {
    this.revision = revision;
  }
}

/**
 * Server-sent change events; calls `handler({path, kind, revision})` for each. The browser
 * reconnects a dropped stream by itself, but not one the server refused (503: too many
 * streams open), so that one is tried again a few seconds later.
 */
export function listen(handler) {
  const source = new EventSource('/api/events');
  source.addEventListener('change', (event) => handler(JSON.parse(event.data)));
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) setTimeout(() => listen(handler), 5000);
  });
  return source;
}
