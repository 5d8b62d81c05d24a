/**
 * `roam-mcp remote requests | approve ID | deny ID | connections | revoke ID | on | off`: remote
 * access answered at the machine (src-mcp/remote/, docs/remote.md). An approval is written to this
 * machine's data folder, where the running server's waiting sign-in page finds it; nothing
 * through the tunnel can do the same.
 */
import { parseArgs } from 'node:util';
import { ACCESS_LEVELS, graphId } from '../../src-shared/constants.ts';
import { loadConfig } from '../config/load-config.ts';
import { decisionOf, RemoteAccess, RemoteStoreError, type RequestInfo } from '../remote/index.ts';

const USAGE = `Usage:
  roam-mcp remote requests [--json]          Sign-ins waiting for your answer, with the code their page shows
  roam-mcp remote approve ID [--level LEVEL] [--tools SETS] [--graphs GRAPHS]
                                             Let it connect (LEVEL: ${ACCESS_LEVELS.join(', ')}, caps every
                                             graph for its chats; SETS: the toolsets they get; GRAPHS:
                                             the only graphs they reach, nicknames comma-separated,
                                             default every graph)
  roam-mcp remote deny ID                    Refuse it
  roam-mcp remote connections [--json]       Connections: client, where it redirects, level, graphs, last use
  roam-mcp remote revoke ID                  End a connection (its tokens stop at once)
  roam-mcp remote on | off                   The switch: off refuses everything through the tunnel
`;

const describe = (r: RequestInfo) =>
  `${r.id}  code ${r.code}  ${r.clientName}${r.verified ? '' : ' (unverified)'}  answer goes to ${r.redirectHost}  until ${r.expiresAt}`;

export async function runRemoteCli(
  args: string[],
  context: { env: NodeJS.ProcessEnv; home: string },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        json: { type: 'boolean' },
        level: { type: 'string' },
        tools: { type: 'string' },
        graphs: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [verb, id, ...extra] = positionals;
  if (extra.length > 0) return fail(`Unexpected '${extra.join(' ')}'.`);
  const access = new RemoteAccess({ env: context.env, home: context.home });
  try {
    return await run(access, verb, id, values, () => configuredGraphs(context));
  } catch (error) {
    if (error instanceof RemoteStoreError) return fail(error.message, false);
    throw error;
  }
}

async function run(
  access: RemoteAccess,
  verb: string | undefined,
  id: string | undefined,
  values: { json?: boolean; level?: string; tools?: string; graphs?: string },
  graphs: () => ReturnType<typeof configuredGraphs>,
): Promise<number> {
  const out = (text: string) => process.stdout.write(`${text}\n`);
  switch (verb) {
    case 'requests': {
      const requests = await access.requests();
      if (values.json) out(JSON.stringify({ requests }, null, 2));
      else if (requests.length === 0) out('No sign-in is waiting.');
      else for (const r of requests) out(describe(r));
      return 0;
    }
    case 'approve':
    case 'deny': {
      if (!id)
        return fail(
          `remote ${verb} needs the ID of a waiting sign-in (roam-mcp remote requests lists them).`,
        );
      const answered =
        verb === 'approve'
          ? await access.approve(id, decisionOf(values, values.graphs === undefined ? [] : await graphs()))
          : await access.deny(id);
      const reach = answered.graphs ? `  reaches only ${(await labels(graphs))(answered.graphs)}` : '';
      out(
        `${verb === 'approve' ? 'Approved' : 'Denied'}: ${describe(answered)}${reach}. Its page continues by itself.`,
      );
      return 0;
    }
    case 'connections': {
      const connections = await access.connections();
      if (values.json) out(JSON.stringify({ connections }, null, 2));
      else if (connections.length === 0) out('No remote connection.');
      else {
        const named = connections.some((c) => c.graphs) ? await labels(graphs) : () => '';
        for (const c of connections)
          out(
            `${c.id}  ${c.clientName}${c.verified ? '' : ' (unverified)'}  to ${c.redirectHost}  level ${c.level ?? "graph's own"}  graphs ${c.graphs ? named(c.graphs) : 'every'}  last use ${c.usedAt ?? 'never'}`,
          );
      }
      return 0;
    }
    case 'revoke': {
      if (!id) return fail('remote revoke needs a connection ID (roam-mcp remote connections lists them).');
      if (!(await access.revoke(id)))
        return fail(`No connection '${id}'. roam-mcp remote connections lists them.`, false);
      out(`Revoked '${id}': its tokens no longer work.`);
      return 0;
    }
    case 'on':
    case 'off':
      await access.setEnabled(verb === 'on');
      out(
        verb === 'on'
          ? 'Remote access is on (for a server started with --public-url).'
          : 'Remote access is off: everything through the tunnel is refused.',
      );
      return 0;
    default:
      return fail(verb ? `Unknown remote command '${verb}'.` : 'remote needs a command.');
  }
}

/** The graphs `--graphs` names among: the Roam MCP config's (the tray's own graphs: approve there). */
async function configuredGraphs(context: { env: NodeJS.ProcessEnv; home: string }) {
  const loaded = await loadConfig({ env: context.env, home: context.home });
  if (loaded.errors.length > 0)
    throw new RemoteStoreError(
      `--graphs needs the Roam MCP config, which has a problem: ${loaded.errors.join(' ')} Nothing was answered.`,
    );
  if (loaded.graphs.length === 0)
    throw new RemoteStoreError(
      'No Roam MCP config with graphs was found, so --graphs has nothing to choose from. Approve in Roam Companion (Settings > Remote access), or add graphs with roam-mcp connect. Nothing was answered.',
    );
  return loaded.graphs;
}

/** Graph ids as nicknames, where the config still has them (else the id). */
async function labels(graphs: () => ReturnType<typeof configuredGraphs>) {
  const known = await graphs().catch(() => []);
  return (ids: readonly string[]) =>
    ids.map((id) => known.find((g) => graphId(g) === id)?.nickname ?? id).join(', ');
}

function fail(message: string, usage = true): number {
  process.stderr.write(`roam-mcp remote: ${message}\n${usage ? `\n${USAGE}` : ''}`);
  return 2;
}
