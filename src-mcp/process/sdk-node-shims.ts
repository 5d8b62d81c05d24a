/**
 * What `@modelcontextprotocol/server/_shims` gives the SDK on Node, minus AJV: scripts/build.mjs
 * aliases the SDK's shim to this file for the bin. The SDK only needs a JSON Schema validator for
 * elicitation answers, which roam-mcp never asks for, and evaluating AJV's 150 KB at start-up was
 * the largest single cost of the first answer (bench/RESULTS.md). The SDK's own Cloudflare/browser
 * validator stands in.
 */
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
export { default as process } from 'node:process';
