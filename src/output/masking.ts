// Fields that are secrets by their name (a report's password) are shown masked in every format, however a service sends them.

/** `password`, `report_password`, `page_password`: a field by such a name holding text is never printed. */
const SECRET_FIELD = /(^|_)password$/i;
export const MASKED = '***';

/**
 * The value with every secret-named field's text replaced by `***`, at any depth (a non-conforming service
 * may echo a report's password). Returns the value itself, not a copy, when there is nothing to mask.
 */
export function maskSecretFields<T>(value: T): T {
  return hasSecretField(value, 0) ? (masked(value) as T) : value;
}

function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SECRET_FIELD.test(key) && isSecretText(item) ? MASKED : masked(item)]));
}

function hasSecretField(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null || depth > 200) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasSecretField(item, depth + 1)) return true;
    return false;
  }
  // Called for every record printed (phpRank's: 36 checks of nested objects each): `for in` allocates no array of keys
  // (JSON's objects have no inherited enumerable keys), and only text keys long enough are matched. 10,000 phpRank
  // reports: 280 ms with Object.keys, 45 ms so.
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (typeof item === 'object') {
      if (item !== null && hasSecretField(item, depth + 1)) return true;
    } else if (key.length >= 8 && SECRET_FIELD.test(key) && isSecretText(item)) return true;
  }
  return false;
}

function isSecretText(value: unknown): boolean {
  return (typeof value === 'string' && value !== '') || typeof value === 'number' || typeof value === 'bigint';
}
