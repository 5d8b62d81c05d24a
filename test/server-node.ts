/**
 * The Node binary that runs the server under test (dist/roam-mcp.mjs and the tray's `--mcp`
 * launcher, whose fork inherits it). `npm run test:node-lts` sets ROAM_TEST_NODE to the Node 22
 * and 24 binaries shipped by the `node22` / `node24` devDependencies (docs/mcp.md, tested Node
 * versions); unset, the server runs on the Node that runs vitest.
 */
export const SERVER_NODE = process.env.ROAM_TEST_NODE || process.execPath;
