// The secrets one invocation knows (the API key, report passwords), and the one way they are scrubbed from any text.
import { urlPasswords } from '../../history/location.js';
import { escapeRegExp } from '../../url-glob.js';
import type { Sink } from '../../output/index.js';
import { terminalJson, terminalLines, terminalText } from '../../output/terminal-text.js';
import { tsvField } from '../../output/tsv.js';
import { escapeHtml, jsonForScript, markdownText, xmlAttribute, xmlText } from '../../output/escape.js';

/** Inside a JSON string: how `encode` writes a string, without its quotes. */
const inJsonString = (encode: (value: string) => string) => (text: string) => encode(text).slice(1, -1);

/**
 * Every way an output of ours writes a text's characters, each output by the encoder it uses: a service that echoes
 * a secret back (`Zq9<s3cr&t"key` in a field) gets it encoded before any sink could redact it, so each form is a
 * secret too. An output that encodes text in a new way adds its encoder here.
 */
const ENCODINGS: readonly ((text: string) => string)[] = [
  (text) => text,
  terminalText, // stderr, tables and csv/tsv cells on a terminal
  terminalLines,
  inJsonString(JSON.stringify), // json, ndjson, the journal
  inJsonString((text) => terminalJson(JSON.stringify(text))), // json on a terminal
  inJsonString(jsonForScript), // the HTML page's data
  xmlText, // JUnit
  xmlAttribute,
  escapeHtml, // the HTML page
  markdownText, // the Markdown summary
  csvQuoted, // csv
  tsvField, // tsv
  (text) => csvQuoted(terminalText(text)),
  (text) => tsvField(terminalText(text)),
];

/** Inside a quoted csv field (RFC 4180, csv.ts): each quote doubled. */
function csvQuoted(text: string): string {
  return text.replaceAll('"', '""');
}

/**
 * A URL's path as the URL parser writes an http(s) one (an echoed secret in a report's URL, the HTML page's link to
 * it): percent-encoded, a backslash turned into a slash.
 */
function percentEncoded(text: string): string {
  return text.replace(/[\u0000-\u0020"#<>?`{}\u007f-\ud7ff\ue000-\u{10ffff}]/gu, (char) => encodeURIComponent(char)).replaceAll('\\', '/');
}

/**
 * The forms a hostile service may echo a secret back in, beside the value itself: percent-encoded (a URL's path, a
 * query value, a form field) and base64 (an `Authorization: Basic` it decoded; unpadded, so that it matches inside
 * a longer base64 text and with any padding).
 */
function echoedForms(value: string): string[] {
  const base64 = Buffer.from(value, 'utf8').toString('base64').replace(/=+$/, '');
  const base64url = Buffer.from(value, 'utf8').toString('base64url');
  let component = value;
  try {
    component = encodeURIComponent(value);
  } catch {
    // A lone surrogate has no percent-encoded form.
  }
  const formField = new URLSearchParams({ value }).toString().slice('value='.length);
  return [value, percentEncoded(value), component, formField, base64, base64url];
}

/** The secrets of one invocation: each run has its own (in-process tests run many invocations in one process). */
export class Secrets {
  /** Each registered value and its forms. */
  private readonly values = new Map<string, Set<string>>();
  private readonly known = new Set<string>();
  /** Every known form, longest first, matched in any case: a service or resolver that lower-cases a host echoes it so. */
  private pattern: RegExp | undefined;

  /**
   * Registers a value that must never be printed, in every form an output of ours encodes it (ENCODINGS): stderr
   * escapes control characters, JSON a quote, JUnit an ampersand, all before a sink redacts. Very short values are
   * ignored (they would redact ordinary words).
   */
  register(value: string | undefined): void {
    if (!value || value.length < 4 || this.values.has(value)) return;
    const forms = new Set<string>();
    for (const text of echoedForms(value)) for (const encode of ENCODINGS) forms.add(encode(text));
    this.values.set(value, forms);
    const before = this.known.size;
    for (const form of forms) this.known.add(form);
    if (this.known.size !== before) this.compile();
  }

  /** A value that is no secret after all (the mock's published demo key): printed as it is from now on. */
  forget(value: string): void {
    if (!this.values.delete(value)) return;
    this.known.clear();
    for (const forms of this.values.values()) for (const form of forms) this.known.add(form);
    this.compile();
  }

  private compile(): void {
    if (this.known.size === 0) {
      this.pattern = undefined;
      return;
    }
    // Longest first: a form that holds a shorter one (`a&amp;b` holds `a&`) is redacted whole, not in part.
    const longestFirst = [...this.known].sort((a, b) => b.length - a.length);
    this.pattern = new RegExp(longestFirst.map(escapeRegExp).join('|'), 'gi');
  }

  /**
   * Before anything is parsed: the key given with --api-key or RSAPI_API_KEY, so that even a usage error
   * (which commander words from argv) cannot echo it.
   */
  registerInvocation(argv: readonly string[], env: NodeJS.ProcessEnv): void {
    this.register(env.RSAPI_API_KEY);
    // A history URL's password (postgres://user:PASSWORD@host/db) is as secret as the key.
    for (const password of urlPasswords(env.RSAPI_HISTORY)) this.register(password);
    argv.forEach((word, index) => {
      if (word === '--api-key') this.register(argv[index + 1]);
      else if (word.startsWith('--api-key=')) this.register(word.slice('--api-key='.length));
      else if (word === '--history') for (const password of urlPasswords(argv[index + 1])) this.register(password);
      else if (word.startsWith('--history=')) for (const password of urlPasswords(word.slice('--history='.length))) this.register(password);
    });
  }

  /** Whether `value` is one of this invocation's secrets. */
  has(value: string): boolean {
    return this.known.has(value);
  }

  /** `text` with every secret, in any case, as `***`. */
  redact(text: string): string {
    return this.pattern === undefined ? text : text.replace(this.pattern, '***');
  }

  /** Whether `text` holds a secret (in any case). */
  heldIn(text: string): boolean {
    return this.redact(text) !== text;
  }

  /**
   * `target` with every text chunk redacted before it gets it. Everything else is the target's own, so a
   * stream stays one: writers waiting for 'drain' still can, a progress bar still reads isTTY and columns,
   * a prompt still draws on it.
   */
  redactedSink<Target extends Sink>(target: Target): Target {
    const write = (chunk: unknown, ...rest: unknown[]) =>
      (target.write as (chunk: unknown, ...rest: unknown[]) => unknown).call(target, typeof chunk === 'string' ? this.redact(chunk) : chunk, ...rest);
    return new Proxy(target, {
      get(object, property) {
        if (property === 'write') return write;
        const value: unknown = Reflect.get(object, property, object);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
  }
}
