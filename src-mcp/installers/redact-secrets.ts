/**
 * Hides secrets in config text before it is shown (tray preview, `--dry-run`): other servers'
 * entries often carry API keys in `env` or headers, and the official Roam server's entry may hold
 * a Roam token. Only values are replaced, so the text keeps its shape and stays valid JSON.
 */
const HIDDEN = '<hidden>';

/** Values of keys whose name says they hold a secret, e.g. "ROAM_API_TOKEN", "Authorization". */
const SECRET_NAMED_VALUE =
  /("[^"\\\n]*(?:token|secret|passw|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth|credential|cookie)[^"\\\n]*"\s*:\s*)"(?:[^"\\\n]|\\.)*"/gi;

/**
 * The same in TOML (Codex's config): `NAME = "value"` on its own line or in an inline table. A name
 * ending in `env_var` names the variable that holds a secret (`bearer_token_env_var`), not the secret.
 */
const SECRET_NAMED_TOML_VALUE =
  /((?:^|[{,])[ \t]*["']?([\w.-]*(?:token|secret|passw|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth|credential|cookie)[\w.-]*)["']?[ \t]*=[ \t]*)("(?:[^"\\\n]|\\.)*"|'[^'\n]*')/gim;

/** Secrets recognisable by their shape wherever they appear (args, URLs, headers). */
const SECRET_SHAPES: RegExp[] = [
  /roam-graph-local-token-[A-Za-z0-9_-]+/g,
  /roam-mcp-key-[A-Za-z0-9_-]+/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]+/g,
  /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
];

/** The text with every secret-looking value replaced by `<hidden>`. */
export function redactSecrets(text: string): string {
  let result = text
    .replace(SECRET_NAMED_VALUE, `$1"${HIDDEN}"`)
    .replace(SECRET_NAMED_TOML_VALUE, (all: string, head: string, name: string) =>
      /env_var$/i.test(name) ? all : `${head}"${HIDDEN}"`,
    );
  for (const shape of SECRET_SHAPES) result = result.replace(shape, HIDDEN);
  return result;
}
