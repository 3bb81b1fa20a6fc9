// Secrets known to this run (the API key, report passwords), and the one function that scrubs them from any text.
const secrets = new Set<string>();

/** Registers a value that must never be printed. Very short values are ignored (they would redact ordinary words). */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

export function redact(text: string): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join('***');
  return result;
}

/** The key as users may see it: only its last 4 characters. */
export function maskKey(key: string): string {
  return key.length <= 8 ? '****' : `****${key.slice(-4)}`;
}
