/**
 * The folders file_upload may read from (docs/reliability.md, Uploads). Nothing by default: the
 * user names them with `--upload-folder PATH` (repeatable), `uploadFolders` in the config file,
 * or Roam Companion's setting (sent over IPC, live). The sources add up. Each source may also name
 * files that must never be read (the config file in use, the tray's store folder). One
 * `UploadFolders` per server, made where it is built (src-mcp/process/run-server.ts) and lent to
 * every handler as `ctx.uploadFolders`.
 */
import os from 'node:os';
import path from 'node:path';
import { log } from '../contract/log.ts';
import { hasDotComponent } from './path-guard.ts';

export type UploadFolderSource = 'cli' | 'config' | 'tray';

interface SourceEntry {
  folders: string[];
  protectedPaths: string[];
}

declare module '../contract/tool-definition.ts' {
  /** Every handler may read the upload folders (file_upload's `filePath`). */
  interface ServerServices {
    uploadFolders: UploadFolders;
  }
}

/** `~` and `~/x` against the home folder; anything else must already be absolute. */
export function expandFolder(folder: string, home: string): string | undefined {
  const expanded =
    folder === '~'
      ? home
      : folder.startsWith('~/') || folder.startsWith('~\\')
        ? path.join(home, folder.slice(2))
        : folder;
  return path.isAbsolute(expanded) ? path.normalize(expanded) : undefined;
}

export class UploadFolders {
  private readonly sources = new Map<UploadFolderSource, SourceEntry>();

  /**
   * Replaces what one source says. Folders that are not absolute (after `~`) are skipped with a
   * warning naming `origin`, so the person who wrote them can fix them.
   */
  set(
    source: UploadFolderSource,
    entry: { folders?: readonly string[]; protectedPaths?: readonly string[] },
    origin: string,
    home = os.homedir(),
  ): void {
    const folders: string[] = [];
    for (const folder of entry.folders ?? []) {
      const expanded = expandFolder(folder, home);
      if (!expanded)
        log(
          'warn',
          `${origin}: upload folder '${folder}' is not an absolute path (or ~/...); it is ignored.`,
        );
      else if (hasDotComponent(expanded))
        log(
          'warn',
          `${origin}: upload folder '${folder}' has a dot-folder in its path, and agents never read dot-files or dot-folders; it is ignored. Choose a folder outside any dot-folder.`,
        );
      else folders.push(expanded);
    }
    const protectedPaths = (entry.protectedPaths ?? []).filter((p) => path.isAbsolute(p));
    this.sources.set(source, { folders, protectedPaths });
  }

  /** Every source's folders and never-read paths, in one list each. */
  current(): { folders: string[]; protectedPaths: string[] } {
    const all = [...this.sources.values()];
    return {
      folders: [...new Set(all.flatMap((s) => s.folders))],
      protectedPaths: all.flatMap((s) => s.protectedPaths),
    };
  }
}

export const NO_UPLOAD_FOLDER =
  'No upload folder is set, so file_upload cannot read local files (url and base64 still work). ' +
  'The user can allow a folder: in Roam Companion (Settings > Upload folders), as "uploadFolders": ["~/Pictures"] in ~/.roam-tools.json, or with \'--upload-folder PATH\' in the MCP client\'s config for roam-mcp (then restart the MCP client).';
