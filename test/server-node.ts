/**
 * The Node binary that runs the server under test (dist/roam-mcp.mjs and the tray's `--mcp`
 * launcher, whose fork inherits it). The node22 and node24 passes (scripts/test-passes.mjs) set
 * ROAM_TEST_NODE to the npm-shipped Node 22 and 24 (scripts/lts-node.mjs; docs/mcp.md, Node
 * versions); unset, it is the Node running the tests (20 on CI, the engines minimum).
 */
export const SERVER_NODE = process.env.ROAM_TEST_NODE || process.execPath;
