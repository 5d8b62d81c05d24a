/**
 * No child process we start (Roam's opener, the MCP child, whatever Electron spawns for a link)
 * may carry a token in its environment (docs/reliability.md). A variable goes when its name says
 * it holds a secret or its value holds a Roam token, whatever the name.
 */
import { LOCAL_TOKEN_PREFIX, REMOTE_TOKEN_PREFIX } from './roam-config.ts';

const SECRET_NAME = /TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL|API_?KEY/i;

export function isSecretVariable(name: string, value: string | undefined): boolean {
  if (SECRET_NAME.test(name)) return true;
  return !!value && (value.includes(LOCAL_TOKEN_PREFIX) || value.includes(REMOTE_TOKEN_PREFIX));
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
