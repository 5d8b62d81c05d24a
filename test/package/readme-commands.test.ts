/**
 * The README's commands, and those of the guide it sends a newcomer to (docs/guide.md), work as
 * written: every `npm run` names a script, every roam-mcp command
 * in its shell blocks runs with the built bin (those that need Roam Desktop or a person answer
 * `--help`; an install is run as a dry run, which works before the client's folder exists), and
 * how to get the product from a clone comes before any command that needs the published package.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, ROOT, removeHome, tempHome } from '../harness/mcp-bin.ts';

/** The README, then the guide: one text, in the order a newcomer reads them. */
const readme = ['README.md', 'docs/guide.md']
  .map((file) => readFileSync(path.join(ROOT, file), 'utf8'))
  .join('\n');
const scripts = Object.keys(
  (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts,
);
/** Commands that need Roam Desktop and a person's answer: only their help is run. */
const INTERACTIVE = new Set(['connect']);

let home: string;
beforeAll(async () => {
  home = await tempHome('roam-readme-');
});
afterAll(() => removeHome(home));

const roamMcp = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: home, ROAM_MCP_NO_LAUNCH: '1' },
    encoding: 'utf8',
    input: '',
  });

/** Each command of the README's ```sh blocks, comments dropped, `a && b` split. */
const shellCommands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((block) => block[1]!.split('\n'))
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter(Boolean)
  .flatMap((line) => line.split('&&').map((command) => command.trim()));

it('every npm run it shows is a script of package.json', () => {
  const named = [...readme.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]!);
  expect(named.length).toBeGreaterThan(5);
  expect(named.filter((name) => !scripts.includes(name))).toEqual([]);
});

it('every roam-mcp command in its shell blocks runs with the built bin', () => {
  const commands = shellCommands.filter((command) => command.startsWith('node dist/roam-mcp.mjs'));
  expect(commands.length).toBeGreaterThanOrEqual(3);
  for (const command of commands) {
    const args = command.split(/\s+/).slice(2);
    const run = INTERACTIVE.has(args[0]!)
      ? roamMcp([args[0]!, '--help'])
      : roamMcp(args[0] === 'install' && args[1] ? [...args, '--dry-run'] : args);
    expect({ command, status: run.status }).toEqual({ command, status: 0 });
  }
  const others = shellCommands.filter((c) => !c.startsWith('node ') && !/^(claude|gemini) /.test(c));
  for (const command of others) expect(command).toMatch(/^npm (install|run [\w:-]+)$/);
});

it('its plugin and extension commands name this clone’s marketplace, plugin and extension', () => {
  const manifest = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
  const marketplace = manifest('.claude-plugin/marketplace.json') as {
    name: string;
    plugins: { name: string }[];
  };
  const extension = manifest('gemini-extension.json') as { name: string };
  const plugin = `${marketplace.plugins[0]!.name}@${marketplace.name}`;
  expect(shellCommands.filter((c) => /^(claude|gemini) /.test(c))).toEqual([
    'claude plugin marketplace add ./',
    `claude plugin install ${plugin}`,
    'gemini extensions link .',
  ]);
  // test/clients/real-clients.test.ts runs these with the real CLIs; the names agree here.
  expect(extension.name).toBe(marketplace.plugins[0]!.name);
});

it('every roam-mcp subcommand it names exists and answers --help', () => {
  const named = new Set([...readme.matchAll(/`roam-mcp (\w+)/g)].map((match) => match[1]!));
  expect([...named]).toEqual(expect.arrayContaining(['changes', 'undo']));
  for (const sub of named)
    expect({ sub, status: roamMcp([sub, '--help']).status }).toEqual({ sub, status: 0 });
});

it('says how to get it from a clone before any command that needs the published package', () => {
  const clone = readme.indexOf('from a clone (today)');
  expect(clone).toBeGreaterThan(0);
  expect(readme.indexOf('npx -p roam-companion')).toBeGreaterThan(clone);
  expect(readme.indexOf('npm install -g')).toBeGreaterThan(clone);
});
