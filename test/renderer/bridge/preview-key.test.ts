// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { takePreviewKey } from '../../../src-renderer/bridge/preview-key.ts';

afterEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the preview key in the page', () => {
  it('takes the key out of the address bar and keeps it for the tab, so a reload still has it', () => {
    window.history.replaceState(null, '', '/?x=1#key=abc_DEF-123');
    expect(takePreviewKey(window)).toBe('abc_DEF-123');
    expect(window.location.href).toBe('http://localhost:3000/?x=1');
    expect(takePreviewKey(window)).toBe('abc_DEF-123'); // after a "reload": from sessionStorage
  });

  it('has no key when the page was opened without one', () => {
    expect(takePreviewKey(window)).toBeUndefined();
  });
});
