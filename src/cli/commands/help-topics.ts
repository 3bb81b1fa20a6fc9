// `rsapi help exit-codes` and `rsapi help environment`: topics beside the commands' help (the root help lists both
// briefly). Each is a list of items fitted to the width as commander fits options: term, then the text wrapped at
// whitespace beside it, or under it when the width leaves too little room beside it.
import { Help } from '@commander-js/extra-typings';

/**
 * The exit codes (a script's `case $?` reads them): `meaning` as the help says it, `doc` where docs/exit-codes.md's
 * table (written from this one by `npm run docs`) says more.
 */
export const EXIT_CODES: readonly { code: number; meaning: string; doc?: string }[] = [
  { code: 0, meaning: 'success' },
  { code: 1, meaning: 'unexpected failure' },
  {
    code: 2,
    meaning: 'usage: bad flag or value',
    doc: 'usage: a bad flag, argument or value, caught before any request; also a declined delete confirmation (cancelled, as in gh)',
  },
  { code: 3, meaning: 'authentication refused, or no key configured', doc: 'authentication or permission refused (401, 403), or no key configured' },
  {
    code: 4,
    meaning: 'not found (404), or no such run in the history (--baseline, --require-baseline)',
    doc: 'not found (404); also a history run asked for that is not there: `--baseline run:ID`, or no earlier run of the job with `--require-baseline`',
  },
  {
    code: 5,
    meaning: 'the service refused the request (4xx)',
    doc: 'the service refused the request as sent (400, 405, 409, 413, 422, any other 4xx)',
  },
  { code: 6, meaning: 'still rate limited (429) after the retries' },
  { code: 7, meaning: 'network: refused, reset, DNS, timeout', doc: 'network: connection refused or reset, DNS failure, timeout' },
  {
    code: 8,
    meaning: 'server fault (5xx) or not the JSON expected, or no per-check results for --fail-on-check & co.',
    doc: 'server fault (5xx) or a response that is not the JSON expected; also a service whose reports carry no per-check results, asked for them (`--fail-on-check`, `--fail-on-importance`, `stats --checks`)',
  },
  {
    code: 10,
    meaning:
      'a gate (--fail-on, --min-score, --fail-on-check, --fail-on-importance, --max-drop) or an error assertion failed, or a gate judged no report at all (without --allow-empty)',
    doc: "a gate (`--fail-on`, `--min-score`, `--fail-on-check`, `--fail-on-importance`, a baseline's `--max-drop` or `--fail-on-new-failures`) or an `error` assertion failed, or a gate judged no report at all (without `--allow-empty`)",
  },
  {
    code: 11,
    meaning: 'the output printed, but the history (--record, history ...) could not be read or written',
    doc: "the command's own work was done (its output printed), but the history asked for (`--record`, `--baseline last`, `history ...`) could not be read or written",
  },
  {
    code: 12,
    meaning: 'the run is incomplete: a merge of run parts misses a share (history merge, audit --merge)',
    doc: 'the run is incomplete: a merge of run parts (`history merge`, `audit --merge`) misses a share, each missing share named (`shard 2/3 missing`); nothing was recorded as a complete run',
  },
  { code: 130, meaning: 'interrupted (Ctrl-C)' },
  { code: 141, meaning: 'bulk create: stdout closed before all were done', doc: "a bulk create's stdout was closed before every URL was done" },
];

/**
 * Every environment variable the program reads: `rsapi help environment`, the root help's line and
 * docs/environment.md are written from this table, so none can be left out of one of them. `term` is how the topic
 * shows it (a value it takes, or names that go together); `also`: names its meaning mentions that the term does not.
 */
export const ENVIRONMENT: readonly { term: string; meaning: string; also?: readonly string[] }[] = [
  { term: 'RSAPI_BASE_URL', meaning: 'service address, as --base-url' },
  { term: 'RSAPI_API_KEY', meaning: 'API key, as --api-key (never stored)' },
  { term: 'RSAPI_PROFILE', meaning: 'stored profile to use, as --profile' },
  { term: 'RSAPI_OUTPUT', meaning: 'output format, as -o (table, json, ndjson, csv, tsv)' },
  { term: 'RSAPI_TIMEOUT', meaning: 'per-request timeout in seconds, as --timeout' },
  { term: 'RSAPI_RETRIES', meaning: 'retries after a failed attempt (0 to 10), as --retries' },
  { term: 'RSAPI_CONFIG_DIR', meaning: 'directory of the settings file (`rsapi config path` prints it)' },
  { term: 'RSAPI_DEBUG=1', meaning: 'a stack trace with every error (--verbose gives one for unexpected errors only)' },
  { term: 'RSAPI_RECORD=1', meaning: 'record every report read in the history, as --record' },
  {
    term: 'RSAPI_HISTORY',
    meaning:
      'where the history lives (a SQLite path or a postgres:// URL), as --history; default $XDG_DATA_HOME/rsapi/history.db, else ~/.local/share/rsapi/history.db',
  },
  { term: 'RSAPI_HISTORY_TIMEOUT_MS', meaning: 'how long a history write may go unanswered before the run gives the history up (default 10000; exit 11)' },
  { term: 'RSAPI_JOB', meaning: "the job a recorded run belongs to, as --job NAME (the baseline is its job's last run)" },
  {
    term: 'RSAPI_PIPELINE',
    meaning: "the pipeline a run part belongs to, as --pipeline KEY (default: GitHub's GITHUB_REPOSITORY and GITHUB_RUN_ID, GitLab's CI_PIPELINE_ID)",
    also: ['GITHUB_REPOSITORY', 'GITHUB_RUN_ID', 'CI_PIPELINE_ID'],
  },
  { term: 'RSAPI_ASSERT', meaning: 'the assertions file, as --assert PATH' },
  { term: 'RSAPI_FOLLOW_PAGES=0', meaning: 'after a lost answer, never fetch the audited page to retrace its redirects' },
  { term: 'NO_COLOR=1', meaning: 'no colour; FORCE_COLOR=1 colour even into a pipe', also: ['FORCE_COLOR'] },
  { term: 'HTTPS_PROXY, HTTP_PROXY, NO_PROXY', meaning: 'proxy for the requests to the service (a URL, e.g. http://proxy:3128)' },
];

/** The names of the variables, in the table's order: `RSAPI_DEBUG`, not `RSAPI_DEBUG=1`. */
export function environmentNames(): string[] {
  return ENVIRONMENT.flatMap(({ term, also = [] }) => [...term.split(', ').map((name) => name.replace(/=.*/, '')), ...also]);
}

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
 * A help text fitted to `width`, so no line is longer and no word is split by the terminal: a run of unindented prose
 * lines (an epilogue) is reflowed as one paragraph when any of them is too long; a too long example line
 * (`  $ command  # comment`) is continued as fitExamples continues it; any other too long line is wrapped at
 * whitespace under its own indent. Lines that fit stay as they are.
 */
export function fitHelpText(text: string, width: number): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (isProse(line)) {
      let end = index;
      while (end + 1 < lines.length && isProse(lines[end + 1] as string)) end++;
      const paragraph = lines.slice(index, end + 1);
      out.push(paragraph.some((each) => each.length > width) ? wrapText(paragraph.join(' '), width) : paragraph.join('\n'));
      index = end;
      continue;
    }
    if (line.length <= width) {
      out.push(line);
      continue;
    }
    const example = /^ {2}\$ (.*?)(?: {2,}# (.*))?$/.exec(line);
    if (example) {
      out.push(fitExamples([[example[1] as string, example[2]]], width).replace(/\n$/, ''));
      continue;
    }
    const indent = /^ */.exec(line)?.[0].length ?? 0;
    out.push(`${' '.repeat(indent)}${wrapText(line.slice(indent), width, indent)}`);
  }
  return out.join('\n');
}

/** An unindented line of words (not empty, not a heading ending in a colon): part of a paragraph fitHelpText may reflow. */
function isProse(line: string): boolean {
  return line !== '' && !line.startsWith(' ') && !line.endsWith(':');
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
  return `Exit codes:\n${fitItems(
    EXIT_CODES.map(({ code, meaning }) => [String(code), meaning]),
    width,
  )}`;
}

/** The root help's closing line on the environment, fitted to `width`. */
export function environmentLine(width: number): string {
  return wrapText(`Environment: ${environmentNames().join(', ')} (\`rsapi help environment\`).`, width);
}

function exitCodesTopic(width: number): string {
  return `${exitCodesText(width)}
${wrapText('Not configured: no base URL anywhere (flag, RSAPI_BASE_URL, profile) is a usage error (2); a base URL without a key is an authentication failure (3), as a refused key is.', width)}
`;
}

function environmentTopic(width: number): string {
  return `${wrapText('Environment variables. A flag wins over a variable; a variable wins over the stored profile. An empty variable counts as unset.', width)}

${fitItems(
  ENVIRONMENT.map(({ term, meaning }) => [term, meaning]),
  width,
)}
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
    const whole = comment ? `  $ ${command.padEnd(24)} # ${comment}` : `  $ ${command}`;
    if (whole.length <= width) return [whole];
    const out = comment
      ? wrapText(comment, width - 4)
          .split('\n')
          .map((line) => `  # ${line}`)
      : [];
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
