import type { KeyboardEvent } from 'react';

const focusable =
  'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside the element handling the key (a dialog): the ends wrap around. */
export function trapTab(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab') return;
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(focusable)];
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  // From the dialog itself (it takes the focus when it opens) or from either end, wrap around.
  const onDialog = document.activeElement === event.currentTarget;
  if (event.shiftKey && (onDialog || document.activeElement === first)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (onDialog || document.activeElement === last)) {
    event.preventDefault();
    first.focus();
  }
}
