// The MCP Apps roam-mcp serves (src-mcp/apps/): each one self-contained HTML page, its script
// and style inline, under a CSP that allows exactly those two (by hash) and nothing from outside.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * zod (which ext-apps' App uses to check messages) exports every locale it has; the app speaks
 * English only, so the locales module is reduced to `en` (about a third of the page otherwise).
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: path.join(path.dirname(args.importer), args.path), namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), 'en.js'))};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Builds the change-review app: returns its HTML and writes it to dist/apps/change-review.html. */
export async function buildChangeReviewHtml(root) {
  const dir = path.join(root, 'src-mcp/apps/change-review');
  const bundled = await build({
    entryPoints: [path.join(dir, 'app.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [englishOnlyZod],
  });
  // A script element ends at the first `</script`, wherever it is; in JS `<\/` reads the same.
  const script = bundled.outputFiles[0].text.replace(/<\/script/gi, '<\\/script').trim();
  const style = (await readFile(path.join(dir, 'style.css'), 'utf8')).trim();
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const template = await readFile(path.join(dir, 'index.html'), 'utf8');
  // Whole elements are replaced, whatever a formatter did inside them: the hashes cover exactly
  // their text. Function replacers: a `$` in the bundle must stay as it is.
  const html = template
    .replace('__CSP__', () => csp)
    .replace(/<style>[\s\S]*?<\/style>/, () => `<style>${style}</style>`)
    .replace(/<script>[\s\S]*?<\/script>/, () => `<script>${script}</script>`);
  await mkdir(path.join(root, 'dist/apps'), { recursive: true });
  await writeFile(path.join(root, 'dist/apps/change-review.html'), html);
  return html;
}
