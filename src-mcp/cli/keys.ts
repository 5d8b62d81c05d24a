/**
 * `roam-mcp key create NAME [--access LEVEL] | list | revoke NAME`: the keys HTTP clients connect
 * with (src-mcp/data-folder/key-store.ts). A new key is printed once, on stdout, and stored only hashed;
 * a revoke takes effect on the running server's next request.
 */
import { parseArgs } from 'node:util';
import { ACCESS_LEVELS } from '../../src-shared/constants.ts';
import { KeyError, KeyStore } from '../data-folder/key-store.ts';

const USAGE = `Usage:
  roam-mcp key create NAME [--access LEVEL] [--tools SETS]
                                              A new key for one client, printed once (LEVEL: ${ACCESS_LEVELS.join(', ')};
                                              it caps every graph for that client's chats; SETS: the
                                              toolsets its chats get, default the server's)
  roam-mcp key list                           The keys by name (never the keys themselves)
  roam-mcp key revoke NAME                    Stops the key working, from the server's next request
`;

export async function runKeyCli(
  args: string[],
  context: { env: NodeJS.ProcessEnv; home: string },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        access: { type: 'string' },
        tools: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [verb, name, ...extra] = parsed.positionals;
  if (extra.length > 0) return fail(`Unexpected '${extra.join(' ')}'.`);
  const store = new KeyStore({ env: context.env, home: context.home });
  try {
    switch (verb) {
      case 'create': {
        if (!name) return fail('key create needs a NAME (e.g. claude-code).');
        const { key, info } = await store.create(name, parsed.values.access, parsed.values.tools);
        process.stderr.write(
          `Created key '${info.name}'${info.access ? ` (access capped at ${info.access})` : ''}. It is shown this once; put it in the client's config as the header 'Authorization: Bearer <key>':\n`,
        );
        process.stdout.write(`${key}\n`);
        return 0;
      }
      case 'list': {
        if (name || parsed.values.access || parsed.values.tools) return fail('key list takes no arguments.');
        const keys = await store.list();
        if (keys.length === 0) process.stdout.write('No keys. Create one with: roam-mcp key create NAME\n');
        for (const key of keys)
          process.stdout.write(
            `${key.name}\t${key.access ?? 'graph settings'}\tcreated ${key.createdAt}${key.toolsets ? `\ttools ${key.toolsets.join(',')}` : ''}\n`,
          );
        return 0;
      }
      case 'revoke': {
        if (!name) return fail('key revoke needs the NAME of a key (roam-mcp key list shows them).');
        if (!(await store.revoke(name)))
          return fail(`There is no key named '${name}' (roam-mcp key list shows them).`, false);
        process.stdout.write(
          `Revoked key '${name}': clients using it are refused from their next request.\n`,
        );
        return 0;
      }
      default:
        return fail(verb ? `Unknown key command '${verb}'.` : 'key needs a command.');
    }
  } catch (error) {
    if (error instanceof KeyError) return fail(error.message, false);
    throw error;
  }
}

function fail(message: string, usage = true): number {
  process.stderr.write(`roam-mcp key: ${message}\n${usage ? `\n${USAGE}` : ''}`);
  return usage ? 2 : 1;
}
