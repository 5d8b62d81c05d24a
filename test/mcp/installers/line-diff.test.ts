/** The dry run's diff: a new file is all `+` lines, and a diff ends at its last change, with no stray `...`. */
import { expect, it } from 'vitest';
import { lineDiff } from '../../../src-mcp/installers/line-diff.ts';

it('a new (or empty) file shows every line added, the final line break opening no empty line', () => {
  for (const before of [null, '']) expect(lineDiff(before, '{\n  "a": 1\n}\n')).toBe('+ {\n+   "a": 1\n+ }');
});

it('unchanged lines far from a change are skipped with one "..." between changes, none after the last', () => {
  const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join('\n') + '\n';
  const after = before.replace('a\n', 'A\n');
  expect(lineDiff(before, after)).toBe('- a\n+ A\n  b\n  c\n  d');
  const both = before.replace('a\n', 'A\n').replace('j\n', 'J\n');
  expect(lineDiff(before, both)).toBe('- a\n+ A\n  b\n  c\n  d\n  ...\n  g\n  h\n  i\n- j\n+ J');
});
