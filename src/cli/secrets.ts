// Secrets known to this run (the API key, report passwords), and the one function that scrubs them from any text.
const secrets = new Set<string>();

/** A new invocation starts with no secrets known (in-process tests run many invocations in one process). */
export function forgetSecrets(): void {
  secrets.clear();
}

/** Registers a value that must never be printed. Very short values are ignored (they would redact ordinary words). */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

/**
 * Before anything is parsed: the key given with --api-key or RSAPI_API_KEY, so that even a usage error
 * (which commander words from argv) cannot echo it.
 */
export function registerInvocationSecrets(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  registerSecret(env.RSAPI_API_KEY);
  argv.forEach((word, index) => {
    if (word === '--api-key') registerSecret(argv[index + 1]);
    else if (word.startsWith('--api-key=')) registerSecret(word.slice('--api-key='.length));
  });
}

export function redact(text: string): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join('***');
  return result;
}
