/**
 * Toolsets (docs/mcp.md, Toolsets): every catalogue tool is in one named set; the bin lists and
 * calls only the selected sets (--tools, ROAM_MCP_TOOLS, default every set but developer); a bad selection is a config
 * error every call answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src-mcp/cli/cli-args.ts';
import { tools } from '../../src-mcp/server/tool-catalogue.ts';
import { isAppOnly, probedActions } from '../../src-mcp/contract/tool-definition.ts';
import {
  DEFAULT_TOOLSETS,
  parseToolsets,
  TOOLSET_NAMES,
  type ToolsetName,
} from '../../src-shared/toolsets.ts';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import {
  errorOf,
  newToken,
  removeHome,
  startMcp,
  tempHome,
  textOf,
  type McpHandle,
} from '../harness/mcp-bin.ts';

describe('toolset membership', () => {
  it('puts every catalogue tool in one of the named toolsets', () => {
    const problems = tools
      .filter((tool) => !TOOLSET_NAMES.includes(tool.toolset))
      .map(
        (tool) => `Tool '${tool.name}' declares toolset '${tool.toolset}', which is not in TOOLSET_NAMES.`,
      );
    expect(problems).toEqual([]);
  });

  it('offers at least one tool in every named toolset', () => {
    const empty = TOOLSET_NAMES.filter((set) => !tools.some((tool) => tool.toolset === set));
    expect(empty).toEqual([]);
  });
});

describe('toolset selection', () => {
  it('parses names, all, the default, and names the valid sets for a mistake', () => {
    expect(parseToolsets('navigation, core')).toEqual({ sets: ['core', 'navigation'] });
    expect(parseToolsets('all')).toEqual({ sets: TOOLSET_NAMES });
    expect(parseToolsets(undefined)).toEqual({ sets: DEFAULT_TOOLSETS });
    expect(parseToolsets(' ')).toEqual({ sets: DEFAULT_TOOLSETS });
    const bad = parseToolsets('core,navigaton,fils', 'ROAM_MCP_TOOLS');
    expect('error' in bad && bad.error).toBe(
      `ROAM_MCP_TOOLS names unknown toolsets 'navigaton', 'fils'. Valid toolsets: ${TOOLSET_NAMES.join(', ')}, or all (default: core,navigation,ui,files,extensions).`,
    );
  });

  it('takes --tools on the command line and refuses it without a value', () => {
    expect(parseCliArgs(['--tools', 'core,ui'])).toEqual({
      command: 'serve',
      readOnly: false,
      tools: 'core,ui',
    });
    expect(parseCliArgs(['--read-only', '--tools=all'])).toMatchObject({ tools: 'all', readOnly: true });
    expect(parseCliArgs(['--tools='])).toEqual({ command: 'serve', readOnly: false });
    expect(parseCliArgs(['--tools'])).toMatchObject({
      command: 'error',
      message: expect.stringContaining('--tools needs'),
    });
  });
});

describe('toolsets over stdio', () => {
  const token = newToken();
  let home: string;
  let emulator: Emulator;
  const handles: McpHandle[] = [];
  const start = async (options: { env?: Record<string, string>; args?: string[] }) => {
    const mcp = await startMcp({
      home,
      env: { ROAM_GRAPH: 'g', ROAM_API_TOKEN: token, ROAM_MCP_TOOLS: '', ...options.env },
      args: options.args,
    });
    handles.push(mcp);
    return mcp;
  };
  const names = async (mcp: McpHandle) => (await mcp.client.listTools()).tools.map((t) => t.name);
  // Tools that wait for a probed Local API action are listed only once Roam offers it; app-only
  // tools only to clients that render apps (these clients do not).
  const catalogueNamesIn = (...sets: ToolsetName[]) =>
    tools
      .filter((tool) => probedActions(tool).length === 0 && !isAppOnly(tool))
      .filter((tool) => sets.includes(tool.toolset))
      .map((t) => t.name);

  beforeAll(async () => {
    home = await tempHome();
    emulator = await startEmulator({
      home,
      graphs: [{ name: 'g', content: 'demo', tokens: [{ token, accessLevel: 'full' }] }],
    });
  });
  afterAll(async () => {
    for (const mcp of handles) await mcp.close();
    await emulator.close();
    await removeHome(home);
  });

  it('with no selection lists every set but developer, and refuses a developer tool, naming its set and how to add it', async () => {
    const mcp = await start({});
    expect(await names(mcp)).toEqual(catalogueNamesIn('core', 'navigation', 'ui', 'files', 'extensions'));
    const error = errorOf(await mcp.call('reload_dev_extensions', {}));
    expect(error.code).toBe('TOOLSET_NOT_ENABLED');
    expect(error.message).toContain("reload_dev_extensions is in the 'developer' toolset");
    expect(error.message).toContain('--tools core,navigation,ui,files,extensions,developer');
    expect(error.message).toContain('ROAM_MCP_TOOLS');
    expect(error).toMatchObject({ toolset: 'developer' });
  });

  it('--tools core lists core alone and refuses a navigation tool, naming its set and how to add it', async () => {
    const mcp = await start({ args: ['--tools', 'core'] });
    expect(await names(mcp)).toEqual(catalogueNamesIn('core'));
    expect(mcp.client.getInstructions()).toContain('undo_changes');
    expect(mcp.client.getInstructions()).not.toContain('get_neighbors');
    const error = errorOf(await mcp.call('get_hubs', {}));
    expect(error.code).toBe('TOOLSET_NOT_ENABLED');
    expect(error.message).toContain("get_hubs is in the 'navigation' toolset");
    expect(error.message).toContain('--tools core,navigation');
    expect(error).toMatchObject({ toolset: 'navigation' });
  });

  it('--tools adds a set, and wins over ROAM_MCP_TOOLS', async () => {
    const mcp = await start({ args: ['--tools', 'core,navigation'], env: { ROAM_MCP_TOOLS: 'navigation' } });
    expect(await names(mcp)).toEqual(catalogueNamesIn('core', 'navigation'));
    const result = await mcp.call('get_hubs', {});
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('Apollo');
  });

  it('ROAM_MCP_TOOLS selects when --tools is absent', async () => {
    const mcp = await start({ env: { ROAM_MCP_TOOLS: 'navigation' } });
    expect(await names(mcp)).toEqual(catalogueNamesIn('navigation'));
    // The instructions name only tools this selection lists.
    expect(mcp.client.getInstructions()).toContain('get_neighbors');
    expect(mcp.client.getInstructions()).not.toContain('undo_changes');
    expect(errorOf(await mcp.call('get_page', { title: 'Project Apollo' })).message).toContain(
      '--tools navigation,core',
    );
  });

  it('an unknown set is a config error on stderr and on every call, naming the valid sets', async () => {
    const mcp = await start({ args: ['--tools', 'core,navigaton'] });
    const expected = `--tools names unknown toolset 'navigaton'. Valid toolsets: ${TOOLSET_NAMES.join(', ')}, or all`;
    for (const name of ['list_graphs', 'get_page']) {
      const error = errorOf(await mcp.call(name, { title: 'Project Apollo' }));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain(expected);
    }
    // Written at startup, before the handshake the calls above waited for.
    expect(mcp.stderr()).toContain(expected);
  });
});
