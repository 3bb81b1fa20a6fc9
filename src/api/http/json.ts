// JSON from and to the service, exactly: integers beyond 2^53 kept as bigint (ids are names, not quantities), nesting capped, no stack overflow.

/** Deeper than any answer of this API (records are 2-3 levels); far below what would exhaust the stack. */
export const MAX_JSON_DEPTH = 128;

/** A body nested deeper than the cap: rejected before anything recursive touches it. */
export class JsonTooDeepError extends Error {
  constructor(readonly maxDepth: number) {
    super(`JSON nested deeper than ${maxDepth} levels`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * JSON.parse, except that an integer literal beyond Number.MAX_SAFE_INTEGER becomes a bigint holding its
 * exact value (`9007199254740993` would otherwise become ...992 and name another report). Throws
 * JsonTooDeepError past `maxDepth` levels of arrays and objects, SyntaxError for text that is not JSON.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  // Nearly every body holds no run of 16 digits anywhere: it is JSON.parse's (V8's parser is iterative: no depth
  // overflows it), its depth counted on the objects made, not on the text. Measured on phpRank's report (3.8 KB) and
  // page of 10 (33 KB): 15 and 120 us, against 28 and 240 us when the text's strings and brackets were peeled by
  // regular expressions first, which made 76 KB of garbage a refreshed page (its look-up's page and its report).
  if (!SIXTEEN_DIGITS.test(text)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      // Text too deep is refused as such, whether or not it is JSON.
      scanExactly(text, maxDepth);
      throw error;
    }
    if (nestsDeeper(value, maxDepth)) throw new JsonTooDeepError(maxDepth);
    return value;
  }
  const bigIntegers = scanExactly(text, maxDepth);
  if (bigIntegers.length === 0) return JSON.parse(text);
  // Each big literal is wrapped in a string carrying a marker no service can guess, then revived as a bigint.
  const marker = `rsapi-integer-${markerId()}:`;
  let rewritten = '';
  let from = 0;
  for (const [start, end] of bigIntegers) {
    rewritten += `${text.slice(from, start)}"${marker}${text.slice(start, end)}"`;
    from = end;
  }
  rewritten += text.slice(from);
  return JSON.parse(rewritten, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(marker) ? BigInt(value.slice(marker.length)) : value));
}

const SIXTEEN_DIGITS = /\d{16}/;

/**
 * Whether a parsed value nests more than `maxDepth` levels of arrays and objects: walked with a stack, no recursion.
 * Object.values, not for-in: on objects JSON.parse has just made, for-in cost more than the parse itself.
 */
function nestsDeeper(value: unknown, maxDepth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const open: object[] = [value];
  const depths: number[] = [1];
  while (open.length > 0) {
    const item = open.pop() as object;
    const depth = depths.pop() as number;
    if (depth > maxDepth) return true;
    const inners: unknown[] = Array.isArray(item) ? item : Object.values(item);
    for (let index = 0; index < inners.length; index++) {
      const inner = inners[index];
      if (typeof inner === 'object' && inner !== null) {
        open.push(inner);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * One pass over the text, outside strings: the nesting depth (checked against the cap) and where the
 * integer literals too big for a double are. Text that is not JSON is left for JSON.parse to refuse.
 */
function scanExactly(text: string, maxDepth: number): [number, number][] {
  const found: [number, number][] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c /* \ */) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > maxDepth) throw new JsonTooDeepError(maxDepth);
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
      // 15 digits always fit a double exactly; an integer literal (no fraction, no exponent) beyond that may not.
      // Shorter literals (nearly all) are passed over without being copied out.
      if (end - i >= 16) {
        const literal = text.slice(i, end);
        if (/^-?\d{16,}$/.test(literal) && !Number.isSafeInteger(Number(literal))) found.push([i, end]);
      }
      i = end - 1;
    }
  }
  return found;
}

/** A marker no service can guess; Web Crypto's global, so node:crypto is not loaded at start-up for it. */
function markerId(): string {
  return globalThis.crypto.randomUUID();
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/**
 * JSON.stringify that writes a bigint as the bare integer it is (JSON.stringify would throw), so a big id
 * read from the service is written out exactly as it came. `indent` as JSON.stringify's.
 */
export function stringifyJson(value: unknown, indent?: number): string {
  // Nearly every value holds no bigint: V8's own serialiser, several times faster than one with a replacer,
  // refuses a bigint with a TypeError, and only then is the value written again the careful way.
  try {
    return JSON.stringify(value, undefined, indent);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  let marker: string | undefined;
  const text = JSON.stringify(
    value,
    (_key, item: unknown) => {
      if (typeof item !== 'bigint') return item;
      marker ??= `rsapi-integer-${markerId()}:`;
      return `${marker}${item.toString()}`;
    },
    indent,
  );
  if (marker === undefined) return text;
  const quoted = new RegExp(`"${marker}(-?\\d+)"`, 'g');
  return text.replace(quoted, '$1');
}
