// electron-builder.yml is only exercised by a release build, which CI cannot run (no Electron
// binary): these checks keep the settings the app depends on from silently drifting.
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../main/helpers.ts';

// js-yaml ships with electron-builder, which reads this same file.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
const config = yaml.load(readFileSync(path.join(repoRoot, 'electron-builder.yml'), 'utf8')) as Record<
  string,
  unknown
> & {
  electronFuses: Record<string, boolean>;
  asarUnpack: string[];
  files: string[];
  mac: { target: string[]; extendInfo: Record<string, unknown>; icon: string };
  win: { target: string[] };
  linux: { target: string[] };
  protocols: Array<{ schemes: string[] }>;
  extraMetadata: { main: string };
};

describe('electron-builder.yml', () => {
  it('sets every fuse explicitly: runAsNode on for the --mcp child, the rest locked down', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: true,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('ships the MCP bundle unpacked where the child runs it, with the app bundles', () => {
    expect(config.asarUnpack).toContain('dist/roam-mcp.mjs');
    expect(config.files).toEqual(
      expect.arrayContaining(['dist/main/**', 'dist/renderer/**', 'dist/roam-mcp.mjs']),
    );
  });

  it('gets "main" from extraMetadata (package.json has none, so npm does not publish the app) and needs no node_modules', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    expect(pkg.main).toBeUndefined();
    expect(config.extraMetadata.main).toBe('dist/main/main.mjs');
    expect(config.files).toContain('dist/main/**');
    // `electron .` (no "main") loads index.js, which must start the same bundle.
    expect(readFileSync(path.join(repoRoot, 'index.js'), 'utf8')).toContain(
      `import './${config.extraMetadata.main}';`,
    );
    // electron-builder copies only production dependencies: there are none, because the app's
    // bundles import nothing but electron and Node's built-ins (ajv's require strings are data).
    expect(pkg.dependencies ?? {}).toEqual({});
    for (const bundle of ['dist/main/main.mjs', 'dist/main/preload.cjs']) {
      const code = readFileSync(path.join(repoRoot, bundle), 'utf8');
      // A module specifier has no spaces or braces: `"from"} the shortcuts` in a string is not one.
      const imported = [...code.matchAll(/(?:\bfrom ?|\bimport\(|\brequire\()"([^"\s{}`]+)"/g)].map(
        (m) => m[1]!,
      );
      const packages = imported.filter((name) => !name.startsWith('node:') && !name.startsWith('.'));
      expect(new Set(packages.filter((name) => !/^ajv(-formats)?\/dist\//.test(name))), bundle).toEqual(
        new Set(['electron']),
      );
    }
  });

  it('builds dmg (menu-bar only), nsis, AppImage and deb, and registers the deep-link scheme', () => {
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.mac.extendInfo.LSUIElement).toBe(true);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.protocols.flatMap((p) => p.schemes)).toContain('roam-companion');
  });

  it('has the tray icons the shell loads, as real PNGs', () => {
    for (const name of ['iconTemplate.png', 'iconTemplate@2x.png', 'tray-icon.png', 'icon.png']) {
      const file = path.join(repoRoot, 'assets', name);
      expect(existsSync(file), name).toBe(true);
      expect(readFileSync(file).subarray(1, 4).toString('ascii')).toBe('PNG');
    }
    expect(existsSync(path.join(repoRoot, config.mac.icon))).toBe(true);
  });
});
