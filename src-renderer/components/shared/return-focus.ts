import { useRef } from 'react';

/**
 * Keyboard users land back on the control that opened a form, dialog or preview once it closes:
 * `arm(key)` when closing, and `ref(key)` on each opener, which takes the focus when it renders.
 */
export function useReturnFocus<Key extends string>() {
  const pending = useRef<Key | null>(null);
  return {
    arm(key: Key) {
      pending.current = key;
    },
    ref: (key: Key) => (element: HTMLElement | null) => {
      if (element && pending.current === key) {
        pending.current = null;
        element.focus();
      }
    },
  };
}
