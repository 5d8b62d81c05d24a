/**
 * `roam-mcp doctor`: what a working setup needs, checked in order and each with what to do next —
 * Node; Roam Desktop and its port file; each graph's token (accepted, its grant against the chosen
 * level) and guidelines; each client's entry; the HTTP server; the journal; file modes; where the logs are. The public
 * entry for the tray's "Copy diagnostics" too. Nothing it reports holds a token, a key or a
 * graph's text (names of graphs, clients and files only).
 */
import {
  clientChecks,
  fileModeChecks,
  httpServerChecks,
  journalChecks,
  logChecks,
  nodeCheck,
} from './local-checks.ts';
import { graphChecks, roamCheck } from './roam-checks.ts';
import type { Check, DoctorOptions } from './check.ts';
import { redactSecrets } from '../installers/redact-secrets.ts';
import { loadConfig } from '../config/load-config.ts';
import packageJson from '../../package.json' with { type: 'json' };

export type { Check, DoctorOptions } from './check.ts';

export interface DoctorReport {
  /** roam-mcp's version, the platform and Node, for a bug report. */
  version: string;
  platform: string;
  node: string;
  checkedAt: string;
  checks: Check[];
}

/** Every check, in the order a setup depends on them (a graph needs Roam, a client needs a graph). */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const roam = await roamCheck(options);
  const checks: Check[] = [
    nodeCheck(),
    roam.check,
    ...(await graphChecks(options, roam.running)),
    ...(await clientChecks(options)),
    ...(await httpServerChecks(options)),
    ...(await (await import('./remote-checks.ts')).remoteChecks(options)),
    ...(await journalChecks(options)),
    ...(await fileModeChecks(options)),
    ...(await logChecks(options)),
  ];
  return {
    version: packageJson.version,
    platform: `${options.platform ?? process.platform}-${process.arch}`,
    node: process.versions.node,
    checkedAt: new Date().toISOString(),
    // A last guard: a check's text never carries anything shaped like a token or key.
    // An ok check has nothing to fix.
    checks: checks.map(({ fix, ...check }) => ({
      ...check,
      detail: redactSecrets(check.detail),
      ...(fix && check.status !== 'ok' ? { fix: redactSecrets(fix) } : {}),
    })),
  };
}

/**
 * The report for a bug report, which leaves this machine: the home folder reads `~` and each
 * configured graph's name and nickname `graph-1`, `graph-2`… (in the order of the config).
 */
export async function forBugReport(report: DoctorReport, options: DoctorOptions): Promise<DoctorReport> {
  const config = await loadConfig({
    ...(options.configPath ? { configPath: options.configPath } : {}),
    env: options.env,
    home: options.home,
  });
  const names = config.graphs.flatMap((graph, index) =>
    [graph.name, graph.nickname].map((name) => ({ name, as: `graph-${index + 1}` })),
  );
  // Longest first, so a name inside another (work, work-notes) never cuts the longer one.
  names.sort((a, b) => b.name.length - a.name.length);
  const home = options.home.replace(/[\\/]+$/, '');
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const homeAt = new RegExp(`${escape(home)}(?=[\\\\/]|$|[^\\w.-])`, 'g');
  const redact = (text: string) =>
    names.reduce(
      (out, { name, as }) => out.replace(new RegExp(`(?<![\\w.-])${escape(name)}(?![\\w-])`, 'g'), as),
      home ? text.replace(homeAt, '~') : text,
    );
  return {
    ...report,
    checks: report.checks.map(({ fix, ...check }) => ({
      ...check,
      name: redact(check.name),
      detail: redact(check.detail),
      ...(fix ? { fix: redact(fix) } : {}),
    })),
  };
}

const MARK = { ok: '✓', warn: '!', fail: '✗', skip: '-' } as const;

/** The report as a person reads it: one line per check, what to do indented under it. */
export function formatDoctor(report: DoctorReport): string {
  const lines = [`roam-mcp ${report.version} on ${report.platform}, Node ${report.node}`];
  let section = '';
  for (const check of report.checks) {
    if (check.section !== section) {
      section = check.section;
      lines.push('', section);
    }
    lines.push(`  ${MARK[check.status]} ${check.name}: ${check.detail}`);
    if (check.fix && check.status !== 'ok') lines.push(`      ${check.fix}`);
  }
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  const warned = report.checks.filter((c) => c.status === 'warn').length;
  lines.push(
    '',
    failed || warned ? `${failed} problem(s), ${warned} warning(s).` : 'Everything checked is in order.',
  );
  return `${lines.join('\n')}\n`;
}

/** Whether the report found a problem (the CLI's exit code). */
export const hasProblems = (report: DoctorReport) => report.checks.some((check) => check.status === 'fail');
