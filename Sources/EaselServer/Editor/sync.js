// Saving as the seeds describe: each gesture is one request (one undo step) sent when the
// gesture ends, in order, each guarded by the revision the editor last saw. The indicator
// says Saved, Saving, Offline, Conflict, or Not saved when the server refused the last edit
// (its message is shown by `onSaved`); it says Saved only when the server said so. A stale revision is never overwritten: the
// conflict dialog offers to reload, or to save the change as a copy. Leaving the page or
// hiding the tab sends what is pending (keepalive requests outlive the page). What could
// not be sent (the server unreachable) is kept in the page's storage with the revision it
// was made on, and sent when the document is opened again, after a reload too: a change
// made elsewhere meanwhile makes it a conflict, never an overwrite. One a busy server
// refuses unread (503) is sent again, as its Retry-After says.

const PENDING = 'easel.pending';

import * as api from './api.js';

export class Sync {
  constructor({ statusElement, onSaved, onConflict }) {
    this.status = statusElement;
    this.onSaved = onSaved;
    this.onConflict = onConflict;
    this.path = null;
    this.revision = null;
    this.queue = [];
    /** Who waits for the queue to be sent (`idle`). */
    this.waiting = [];
    this.sending = false;
    this.leaving = false;
    /** Saves made so far (a description asked for before the last of them is older than it). */
    this.saves = 0;
    /** Whether the last request reached the server (what a request leaving with the page is taken to do). */
    this.reachable = true;
    this.setState('saved');
  }

  open(path, revision) {
    this.path = path;
    this.revision = revision;
    this.queue = [];
    this.setState('saved');
    // Gestures made while the server could not be reached, kept across a reload.
    const kept = readPending();
    if (kept?.path === path && kept.queue?.length) {
      this.revision = kept.revision;
      this.queue = kept.queue.map((operations) => ({ operations, meta: {} }));
      this.setState('saving');
      this.pump();
    }
  }

  /** Keeps the unsent gestures (with the revision they were made on) in the page's storage.
   * While the page is being left, a request already on its way outlives it and is not kept
   * (a reload would send it again), unless the server was unreachable. */
  persist() {
    const leaving = this.leaving && this.reachable;
    const kept = this.queue.filter((item) => !(leaving && item === this.inFlight));
    if (kept.length) {
      localStorage.setItem(PENDING, JSON.stringify({
        path: this.path, revision: this.revision, queue: kept.map((item) => item.operations),
      }));
    } else if (readPending()?.path === this.path) {
      localStorage.removeItem(PENDING);
    }
  }

  setState(state) {
    // Saved, refused, out of reach or in conflict: nothing more comes of waiting (`idle`).
    if (state !== 'saving') for (const resolve of this.waiting?.splice(0) ?? []) resolve();
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
    this.persist();
    this.refused = null;
    this.setState('saving');
    this.pump();
  }

  async pump() {
    if (this.sending || this.holding) return;
    this.sending = true;
    let busy = 0;
    while (this.queue.length && this.state !== 'conflict') {
      const { operations, meta } = this.queue[0];
      this.inFlight = this.queue[0];
      try {
        // While the page is being left, requests are keepalive: they outlive the page.
        const outcome = await api.edit(this.path, operations, this.revision, { keepalive: this.leaving });
        this.reachable = true;
        busy = 0;
        this.queue.shift();
        this.revision = outcome.revision;
        this.saves += 1;
        this.persist();
        this.onSaved(outcome, null, meta);
      } catch (error) {
        if (error.status === 412 || error.status === 409) {
          this.setState('conflict');
          const lost = this.queue.splice(0).map((item) => item.operations);
          this.persist();
          this.onConflict(lost, error.problem.currentRevision);
        } else if (error.status === 0 && this.leaving && this.reachable) {
          // The page is going: its request failed here but, keepalive, goes on to a server
          // that was there a moment ago. It is not kept for the next visit.
          this.persist();
          break;
        } else if (error.status === 0) {
          this.reachable = false;
          this.setState('offline');
          await api.pause(2000);
          continue;
        } else if (error.status === 503 && busy < api.BUSY_TRIES) {
          // Refused unread by a busy server (the request bodies it may hold at once all
          // taken): kept, and sent again when it says.
          busy += 1;
          await api.pause(error.retryAfter);
          continue;
        } else {
          this.queue.shift();
          this.persist();
          this.refused = error;
          this.onSaved(null, error, meta);
        }
      }
    }
    this.sending = false;
    this.inFlight = null;
    if (!this.queue.length && this.state !== 'conflict') this.setState(this.refused ? 'refused' : 'saved');
  }

  /** Runs `work(revision)`, an edit the queue does not carry (a photo's upload), once the
   * gestures before it are saved, and holds the gestures made meanwhile until it ends: each
   * is then sent on the revision it made (`work` returns the server's outcome), instead of
   * two requests on one revision, one of them refused as if someone else had saved. */
  async exclusive(work, { keepsPlaces = () => true, showMoved = async () => {} } = {}) {
    await this.idle();
    const path = this.path;
    this.holding = true;
    try {
      const outcome = await work(this.revision);
      // Unless another document was opened meanwhile (its revision is its own), or the
      // work moved elements the gestures held name by their places (a card's photo goes
      // under its texts): those are then refused as made on an older revision, a
      // conflict, rather than applied to whichever element took the place. Elements
      // moved are shown (`showMoved`) before their revision is edited from, so that a
      // gesture under way finds its element where it now is.
      const kept = keepsPlaces(outcome);
      if (this.path === path && !kept) await showMoved(outcome);
      if (this.path === path && (kept || !this.queue.length)) this.adopt(outcome.revision);
      return outcome;
    } finally {
      this.holding = false;
      this.pump();
    }
  }

  /** Resolves once the gestures queued so far are saved, refused or given up (a conflict),
   * or at once while the server is out of reach (what waits would wait without end). */
  idle() {
    // Nothing on its way that will end by itself (a queue left by a page being hidden is
    // sent with the next gesture).
    if (!this.sending && !this.holding) return Promise.resolve();
    if (this.state === 'offline' || this.state === 'conflict') return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The page is being left or hidden (its last gesture already saved): what is pending is
   * sent with requests that outlive the page, and what could not be is kept for the next visit. */
  leave() {
    this.leaving = true;
    this.flush({ keepalive: true });
    this.persist();
  }

  /** Sends what is pending now (leaving the page, hiding the tab). A request that outlives
   * the page cannot say how it went: when the server is there, what it carries is taken out
   * of the page's storage as it is sent (else a reload would send it twice); while it is
   * unreachable nothing is sent, and all stays stored for the next visit. */
  flush({ keepalive = false } = {}) {
    if (!this.queue.length || this.sending || this.holding || !this.reachable) return;
    const items = this.queue.slice();
    if (keepalive) {
      this.queue = [];
      this.persist();
      this.queue = items;
    }
    api.edit(this.path, items.flatMap((item) => item.operations), this.revision, { keepalive }).then((outcome) => {
      this.queue = this.queue.filter((item) => !items.includes(item));
      this.revision = outcome.revision;
      this.saves += 1;
      this.persist();
      this.onSaved(outcome);
      this.setState('saved');
    }).catch(() => this.setState('offline'));
  }

  /** Another program changed the document: its revision is the one to edit from now on. */
  adopt(revision) {
    this.revision = revision;
  }
}

function readPending() {
  try { return JSON.parse(localStorage.getItem(PENDING) || 'null'); } catch { return null; }
}

/**
 * Server-sent change events; calls `handler({path, kind, revision})` for each, and
 * `handler({resync: true})` when the server could not say everything missed while the
 * stream was down (load it all again). The browser reconnects a dropped stream by itself
 * (naming the last event it saw, so a replica sends what was missed), but not one the
 * server refused (503: too many streams open), so that one is tried again a few seconds later.
 */
export function listen(handler) {
  const source = new EventSource('/api/events');
  source.addEventListener('change', (event) => handler(JSON.parse(event.data)));
  source.addEventListener('resync', () => handler({ resync: true }));
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) setTimeout(() => listen(handler), 5000);
  });
  return source;
}
