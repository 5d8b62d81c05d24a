/**
 * No child process we start (Roam's opener, the MCP child, whatever Electron spawns for a link)
 * may carry a token or key in its environment (docs/reliability.md). A variable goes when its name
 * says it holds a secret or its value holds a Roam token or one of our HTTP keys, whatever the name.
 */
import { LOCAL_TOKEN_PREFIX, REMOTE_TOKEN_PREFIX } from './roam-config.ts';

/**
 * Names that say a secret: ours (ROAM_API_TOKEN, ROAM_MCP_KEY, which Codex reads an HTTP key from)
 * and anyone's `*_KEY`, `*_TOKEN`, passwords and credentials. A `…_PER_KEY` limit is a count, not a key.
 */
const SECRET_NAME = /TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL|API_?KEY|(^|_)KEY$/i;
const NOT_A_SECRET = /_PER_KEY$/i;
/** How our HTTP keys start (src-mcp/data-folder/key-store.ts makes them; src-shared cannot import it). */
const MCP_KEY_PREFIX = 'roam-mcp-key-';

export function isSecretVariable(name: string, value: string | undefined): boolean {
  if (SECRET_NAME.test(name) && !NOT_A_SECRET.test(name)) return true;
  return (
    !!value &&
    [LOCAL_TOKEN_PREFIX, REMOTE_TOKEN_PREFIX, MCP_KEY_PREFIX].some((prefix) => value.includes(prefix))
  );
}

/** A copy of `env` without secret-bearing variables: what a child process gets. */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!isSecretVariable(name, value)) clean[name] = value;
  return clean;
}

/**
 * Removes secret-bearing variables from this process's own environment, for processes that
 * children inherit from without passing through us (Electron's shell.openExternal).
 */
export function removeSecretsInPlace(env: NodeJS.ProcessEnv): void {
  for (const [name, value] of Object.entries(env)) if (isSecretVariable(name, value)) delete env[name];
}
