// `npm run test:one -- FILE…`: the inner loop. Vitest on the named files, in the main pass only,
// without building dist/ or fetching Node 22 and 24 or the real clients (test/global-setup.ts,
// ROAM_TEST_UNIT); the process fixtures are bundled when a named file needs them. For tests of
// modules, the emulator and the renderer. A file that drives the built bin, the tray's launcher or
// the demo reads dist/: run `npm run build` once after changing src (or use `npx vitest run FILE`,
// which builds first when a source changed).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: npm run test:one -- test/path/to/file.test.ts [more files or vitest flags]');
  process.exit(2);
}
const child = spawn(process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ROAM_TEST_UNIT: '1', ROAM_TEST_PASSES: '' },
});
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
