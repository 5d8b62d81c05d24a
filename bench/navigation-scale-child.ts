/**
 * The Local API for bench/navigation-scale.ts in its own process (a million-block graph needs a
 * big heap, and the bench's own work must not share its CPU): the emulator, or the synthetic
 * Local API (test/scale) which it warms so that the bench measures our side only. IPC: `ready`
 * with the url and counts, then `requests` / `clear` / `close`.
 */
import { BLOCKS_QUERY, PAGES_QUERY, REFERENCES_QUERY } from '../src-mcp/navigation/index-queries.ts';
import { HIDDEN_BLOCKS_QUERY, HIDING_TAGS } from '../src-mcp/roam/hidden-blocks.ts';
import { EDITED_SINCE_QUERY, PAGE_COUNT_QUERY } from '../src-mcp/navigation/index-freshness.ts';
import { startEmulator } from '../test/emulator/index.ts';
import { startSyntheticLocalApi } from '../test/scale/synthetic-local-api.ts';

interface Start {
  home: string;
  graph: string;
  blocks: number;
  token: string;
  backend: 'emulator' | 'synthetic';
}

const send = (message: unknown) => process.send?.(message);

async function start(options: Start) {
  const content = { generate: { blocks: options.blocks, seed: 7 } };
  if (options.backend === 'synthetic') {
    const api = await startSyntheticLocalApi({ ...options, content });
    for (const args of [
      [PAGES_QUERY],
      [BLOCKS_QUERY],
      [REFERENCES_QUERY],
      [HIDDEN_BLOCKS_QUERY, [...HIDING_TAGS]],
      [PAGE_COUNT_QUERY],
      [EDITED_SINCE_QUERY, Date.now()],
    ])
      await fetch(`${api.url}/api/${options.graph}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}` },
        body: JSON.stringify({ action: 'data.q', args }),
      }).then((r) => r.arrayBuffer());
    return {
      url: api.url,
      counts: { pages: api.graph.pages.length, blocks: api.graph.blocks.length },
      requests: () => [...api.requests],
      clear: () => api.clearRequests(),
      close: () => api.close(),
    };
  }
  const emulator = await startEmulator({
    home: options.home,
    port: 0,
    semanticSearch: true,
    graphs: [{ name: options.graph, content, tokens: [{ token: options.token, accessLevel: 'read-only' }] }],
  });
  return {
    url: emulator.url,
    counts: emulator.graph(options.graph).counts(),
    requests: () => emulator.requests.filter((r) => r.action).map((r) => r.action!),
    clear: () => emulator.clearRequests(),
    close: () => emulator.close(),
  };
}

process.once('message', async (options: Start) => {
  const began = performance.now();
  const backend = await start(options);
  send({ type: 'ready', url: backend.url, counts: backend.counts, loadMs: performance.now() - began });
  process.on('message', async (message: { type: string }) => {
    if (message.type === 'requests') send({ type: 'requests', requests: backend.requests() });
    else if (message.type === 'clear') {
      backend.clear();
      send({ type: 'cleared' });
    } else if (message.type === 'close') {
      await backend.close();
      send({ type: 'closed' });
      process.exit(0);
    }
  });
});
