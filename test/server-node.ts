/**
 * The Node binary that runs the server under test (dist/roam-mcp.mjs and the tray's `--mcp`
 * launcher, whose fork inherits it). `npm run test:node-lts` sets ROAM_TEST_NODE to the Node 22
 * and 24 binaries shipped by the `node22` / `node24` devDependencies (docs/mcp.md, Node versions).
 * Unset, it is the Node that runs npm (`npm_node_execpath`), not vitest's: those packages also
 * link `node_modules/.bin/node`, so inside npm scripts and npx a bare `node` (vitest's too) is
 * the npm-shipped one, while the Node users installed — 20 on CI, the engines minimum — runs npm.
 */
export const SERVER_NODE = process.env.ROAM_TEST_NODE || process.env.npm_node_execpath || process.execPath;
