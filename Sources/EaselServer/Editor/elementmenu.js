// An element's menu, as the Cards app's context menu: opened by a long press (touch) or a
// right click, at the pointer. Copy, Duplicate, Paste (when something was copied), Bring to
// front, Send to back, Delete; on the empty canvas Paste alone. The arrow keys move between
// them, Escape or a press elsewhere closes it.

export class ElementMenu {
  /** `keysHome`: what takes the keys when what had them before the menu has gone. */
  constructor(menu, keysHome) {
    this.menu = menu;
    this.keysHome = keysHome;
    document.addEventListener('pointerdown', (event) => {
      if (!this.menu.hidden && !this.menu.contains(event.target)) this.close();
    }, { capture: true });
    menu.addEventListener('keydown', (event) => {
      const items = [...menu.querySelectorAll('button')];
      const at = items.indexOf(document.activeElement);
      if (event.key === 'Escape') { event.preventDefault(); this.close(); }
      if (event.key === 'ArrowDown') { event.preventDefault(); items[(at + 1) % items.length].focus(); }
      if (event.key === 'ArrowUp') { event.preventDefault(); items[(at - 1 + items.length) % items.length].focus(); }
    });
  }

  /** Opens the menu at `point` (client pixels) with `items`: [label, action]. */
  open(point, items) {
    this.menu.replaceChildren(...items.map(([label, action]) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('role', 'menuitem');
      button.textContent = label;
      button.addEventListener('click', () => { this.close(); action(); });
      return button;
    }));
    // Where the keys were, to give them back when the menu closes (a hidden menu's item
    // would leave them with the page, where Delete and the arrows mean nothing).
    if (this.menu.hidden) this.returnFocus = document.activeElement;
    this.menu.hidden = false;
    const box = this.menu.getBoundingClientRect();
    this.menu.style.left = `${Math.max(4, Math.min(point.x, window.innerWidth - box.width - 4))}px`;
    this.menu.style.top = `${Math.max(4, Math.min(point.y, window.innerHeight - box.height - 4))}px`;
    this.menu.querySelector('button')?.focus();
  }

  close() {
    const hadFocus = this.menu.contains(document.activeElement);
    this.menu.hidden = true;
    if (!hadFocus) return;
    const back = this.returnFocus?.isConnected && this.returnFocus !== document.body ? this.returnFocus : this.keysHome;
    back?.focus({ preventScroll: true });
  }
}
