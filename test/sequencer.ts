/**
 * Longest test files first, so the two workers end together instead of one waiting on a long file
 * started last. Vitest orders by the durations it cached on this machine; a clean clone (CI) has
 * none, and its fallback (larger files first) left long files to the end: the same code ran in
 * 244 s without durations against 201 s with them. There the durations recorded in
 * test/file-durations.json (`npm run test:durations`) stand in; a file neither knows runs first.
 * Projects keep vitest's order (by name, the isolated one first) and run one after another.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import recorded from './file-durations.json' with { type: 'json' };

const RECORDED: Record<string, number> = recorded;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = new Map(files.map((spec) => [spec, this.secondsOf(spec)]));
    return [...files].sort(
      (a, b) =>
        (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
        Number(b.project.config.isolate) - Number(a.project.config.isolate) ||
        seconds.get(b)! - seconds.get(a)!,
    );
  }

  private secondsOf(spec: TestSpecification): number {
    const file = path.relative(this.ctx.config.root, spec.moduleId).split(path.sep).join('/');
    const key = `${spec.project.name}:${file}`;
    const cached = this.ctx.cache.getFileTestResults(key)?.duration;
    return cached !== undefined ? cached / 1000 : (RECORDED[key] ?? Infinity);
  }
}
