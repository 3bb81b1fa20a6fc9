// `rsapi help exit-codes` and `rsapi help environment`: topics beside the commands' help (the root help lists both
// briefly). Each is a list of items fitted to the width as commander fits options: term, then the text wrapped at
// whitespace beside it, or under it when the width leaves too little room beside it.
import { Help } from '@commander-js/extra-typings';

/** The exit codes (a script's `case $?` reads them). */
const EXIT_CODES: readonly (readonly [code: string, meaning: string])[] = [
  ['0', 'success'],
  ['1', 'unexpected failure'],
  ['2', 'usage: bad flag or value'],
  ['3', 'authentication refused, or no key configured'],
  ['4', 'not found (404)'],
  ['5', 'the service refused the request (4xx)'],
  ['6', 'still rate limited (429) after the retries'],
  ['7', 'network: refused, reset, DNS, timeout'],
  ['8', 'server fault (5xx) or not the JSON expected, or no per-check results for --fail-on-check & co.'],
  [
    '10',
    'a gate (--fail-on, --min-score, --fail-on-check, --fail-on-importance, --max-drop) or an error assertion failed, or a gate judged no report at all (without --allow-empty)',
  ],
  ['11', 'the output printed, but the history (--record, history ...) could not be read or written'],
  ['130', 'interrupted (Ctrl-C)'],
  ['141', 'bulk create: stdout closed before all were done'],
];

const ENVIRONMENT: readonly (readonly [name: string, meaning: string])[] = [
  ['RSAPI_BASE_URL', 'service address, as --base-url'],
  ['RSAPI_API_KEY', 'API key, as --api-key (never stored)'],
  ['RSAPI_PROFILE', 'stored profile to use, as --profile'],
  ['RSAPI_OUTPUT', 'output format, as -o (table, json, ndjson, csv, tsv)'],
  ['RSAPI_TIMEOUT', 'per-request timeout in seconds, as --timeout'],
  ['RSAPI_RETRIES', 'retries after a failed attempt (0 to 10), as --retries'],
  ['RSAPI_CONFIG_DIR', 'directory of the settings file (`rsapi config path` prints it)'],
  ['RSAPI_DEBUG=1', 'a stack trace with every error (--verbose gives one for unexpected errors only)'],
  ['RSAPI_RECORD=1', 'record every report read in the history, as --record'],
  [
    'RSAPI_HISTORY',
    'where the history lives (a SQLite path or a postgres:// URL), as --history; default $XDG_DATA_HOME/rsapi/history.db, else ~/.local/share/rsapi/history.db',
  ],
  ['RSAPI_ASSERT', 'the assertions file, as --assert PATH'],
  ['RSAPI_FOLLOW_PAGES=0', 'after a lost answer, never fetch the audited page to retrace its redirects'],
  ['NO_COLOR=1', 'no colour; FORCE_COLOR=1 colour even into a pipe'],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'proxy for the requests to the service (a URL, e.g. http://proxy:3128)'],
];

/** Below this many columns beside the term, an item's text goes under its term (commander would not wrap it at all). */
const MIN_BESIDE = 24;
/** A term longer than this stands on a line of its own rather than push every other item's text to the right. */
const MAX_TERM = 20;

/** The width a help is fitted to: the terminal's, else 80 (commander's own default for a pipe). */
export function helpWidthOf(columns: number | undefined): number {
  return columns !== undefined && columns > 0 ? columns : 80;
}

/** `text` wrapped at whitespace to `width` columns (commander's wrap), every line after the first indented by `indent`. */
export function wrapText(text: string, width: number, indent = 0): string {
  const help = new Help();
  help.minWidthToWrap = 1;
  return help.boxWrap(text, Math.max(1, width - indent)).replace(/\n/g, `\n${' '.repeat(indent)}`);
}

/**
 * Items as commander lists options: two spaces, the term padded to the longest, two spaces, the text wrapped beside it.
 * A term longer than MAX_TERM, or too long to leave MIN_BESIDE columns, stands alone, its text wrapped under it (in the
 * column of the others' text, or indented by six when that leaves too little room).
 */
export function fitItems(items: readonly (readonly [term: string, text: string])[], width: number): string {
  const fitting = items.filter(([term]) => term.length <= MAX_TERM && width - term.length - 4 >= MIN_BESIDE);
  const termWidth = Math.max(0, ...fitting.map(([term]) => term.length));
  const under = width - termWidth - 4 >= MIN_BESIDE ? termWidth + 4 : 6;
  const lines = items.map(([term, text]) => {
    if (!fitting.some(([fits]) => fits === term)) return `  ${term}\n${' '.repeat(under)}${wrapText(text, width, under)}`;
    return `  ${term.padEnd(termWidth)}  ${wrapText(text, width, termWidth + 4)}`;
  });
  return `${lines.join('\n')}\n`;
}

/** The exit codes as the root help and `rsapi help exit-codes` show them, fitted to `width`. */
export function exitCodesText(width: number): string {
  return `Exit codes:\n${fitItems(EXIT_CODES, width)}`;
}

/** The root help's closing line on the environment, fitted to `width`. */
export function environmentLine(width: number): string {
  const names = ['RSAPI_BASE_URL', 'RSAPI_API_KEY', 'RSAPI_PROFILE', 'RSAPI_OUTPUT', 'RSAPI_TIMEOUT', 'RSAPI_RETRIES', 'RSAPI_CONFIG_DIR'];
  const others = ['NO_COLOR', 'FORCE_COLOR', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'RSAPI_DEBUG=1 (`rsapi help environment`).'];
  return wrapText(`Environment: ${[...names, ...others].join(', ')}`, width);
}

function exitCodesTopic(width: number): string {
  return `${exitCodesText(width)}
${wrapText('Not configured: no base URL anywhere (flag, RSAPI_BASE_URL, profile) is a usage error (2); a base URL without a key is an authentication failure (3), as a refused key is.', width)}
`;
}

function environmentTopic(width: number): string {
  return `${wrapText('Environment variables. A flag wins over a variable; a variable wins over the stored profile. An empty variable counts as unset.', width)}

${fitItems(ENVIRONMENT, width)}
In CI, with no settings file:
  $ RSAPI_BASE_URL=https://rank.example.com RSAPI_API_KEY=$KEY \\
      RSAPI_OUTPUT=json rsapi reports list
`;
}

const TOPICS: Readonly<Record<string, (width: number) => string>> = { 'exit-codes': exitCodesTopic, environment: environmentTopic };

export const HELP_TOPIC_NAMES: readonly string[] = Object.keys(TOPICS);

/** The text of a help topic fitted to `width`, or undefined when the word names none. */
export function helpTopic(name: string, width: number): string | undefined {
  return Object.hasOwn(TOPICS, name) ? TOPICS[name]?.(width) : undefined;
}

/**
 * Example command lines (`$ rsapi ...  # comment`) fitted to `width`: one that does not fit has its comment on a line
 * of its own above it and its words continued with ` \` on lines indented by four, as a shell reads them.
 */
export function fitExamples(examples: readonly (readonly [command: string, comment?: string])[], width: number): string {
  const lines = examples.flatMap(([command, comment]) => {
    const whole = comment ? `  $ ${command.padEnd(25)}# ${comment}` : `  $ ${command}`;
    if (whole.length <= width) return [whole];
    const out = comment ? [`  # ${comment}`] : [];
    let line = '  $';
    for (const word of command.split(' ')) {
      if (line.length + 1 + word.length + 2 > width && line.trim() !== '$') {
        out.push(`${line} \\`);
        line = '      ';
      }
      line += `${line.endsWith(' ') ? '' : ' '}${word}`;
    }
    out.push(line);
    return out;
  });
  return `${lines.join('\n')}\n`;
}
