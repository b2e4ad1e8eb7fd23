// Undo and redo through the shared history (the CLI's): buttons and Ctrl/Cmd-Z,
// Shift-Ctrl/Cmd-Z (and Ctrl-Y).

export function installHistory({ undoButton, redoButton, onUndo, onRedo }) {
  undoButton.addEventListener('click', onUndo);
  redoButton.addEventListener('click', onRedo);
  document.addEventListener('keydown', (event) => {
    const modifier = event.ctrlKey || event.metaKey;
    if (!modifier || event.target.matches?.('input, select, textarea')) return;
    const key = event.key.toLowerCase();
    if (key === 'z' && !event.shiftKey) { event.preventDefault(); onUndo(); }
    if ((key === 'z' && event.shiftKey) || key === 'y') { event.preventDefault(); onRedo(); }
  });
}

export function updateHistoryButtons({ undoButton, redoButton }, { canUndo, canRedo }) {
  undoButton.disabled = !canUndo;
  redoButton.disabled = !canRedo;
}
