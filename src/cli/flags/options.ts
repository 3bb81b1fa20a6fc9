// The global options and the value parsers every verb may use: enums via commander choices, numbers via argument
// parsers. The option groups several verbs share (paging, sort, gates) are in verb-options.ts, loaded with those verbs.
import { InvalidArgumentError, Option, type Command, type CommandUnknownOpts, type OptionValues } from '@commander-js/extra-typings';
import { parseSettingValue } from '../../config/keys.js';
import { emptyFlagError, UsageError } from '../../errors.js';
import { nearest } from '../../suggest.js';
import { durationMs } from './history-values.js';

/** The most requests a bulk command (create, multi-delete) keeps in flight at once. */
export const MAX_CONCURRENCY = 32;

export function integerParser(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    // With no upper bound of its own, "must be at least 1" would puzzle on 99999999999999999999: say what is wrong.
    if (max === Number.MAX_SAFE_INTEGER && /^\s*\d+\s*$/.test(value) && n > max) throw new InvalidArgumentError(`${name} is too large: "${value}"`);
    if (!/^\s*-?\d+\s*$/.test(value) || n < min || n > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER ? `${name} must be a whole number of at least ${min}.` : `${name} must be a whole number from ${min} to ${max}.`,
      );
    }
    return n;
  };
}

/** `90d`, `12h`, `2w`, `30m` as milliseconds (commander's parser: exit 2 for anything else). */
export function durationParser(flag: string) {
  return (value: string): number => {
    const ms = durationMs(value);
    if (ms === undefined) throw new InvalidArgumentError(`${flag} takes a duration such as 90d, 12h, 2w or 30m.`);
    return ms;
  };
}

/**
 * A choice whose value is converted (per-page numbers, privacy names): commander's argParser replaces
 * its choices check, so this parser checks the choice itself, with commander's own wording.
 */
export function choiceOption<Usage extends string, T>(flags: Usage, description: string, choices: readonly string[], convert: (value: string) => T) {
  const option = new Option(flags, description).choices(choices);
  return option.argParser((value: string): T => {
    if (!choices.includes(value)) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
    return convert(value);
  });
}

/** A repeatable flag's values, in the order given (commander's collector for `--include a --include b`). */
export function collectValues(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function timeoutParser(value: string): number {
  try {
    return parseSettingValue('timeout', value) as number;
  } catch (error) {
    throw new InvalidArgumentError(`--${error instanceof Error ? error.message : String(error)}.`);
  }
}

/**
 * Every flag of the command that takes a value refuses an empty one before its own parser runs (exit 2, naming
 * the flag): `--project "$PROJECT"` with PROJECT unset would send `project=` and widen a CI gate to every report.
 * A value its parser or choices refuse, an argument's too, is said in our words (inOurWords), not commander's.
 * Applied to the whole tree (program.ts), so no flag, present or future, can forget it.
 */
export function refuseEmptyValues(command: CommandUnknownOpts): void {
  for (const option of command.options) {
    if (!option.required && !option.optional) continue;
    const flag = option.long ?? option.short ?? option.name();
    const parse = option.parseArg;
    // A plain or choice value given twice (`--result good --result bad`) would keep the last silently: refused.
    // Options that gather their values (api -f) or parse numbers have parsers of their own and keep theirs.
    // A variadic option (`--merge <parts...>`) gathers its values itself.
    const single = (parse === undefined && !option.variadic) || option.argChoices !== undefined;
    option.argParser((value: string, previous: unknown) => {
      if (value.trim() === '') throw emptyFlagError(flag);
      if (single && previous !== undefined && previous !== option.defaultValue) {
        throw new UsageError(`${flag} is given twice ("${String(previous)}", then "${value}"); it takes one value`, { hint: `give ${flag} once` });
      }
      if (parse) return inOurWords(flag, value, option.argChoices, () => parse(value, previous));
      return option.variadic ? [...(Array.isArray(previous) ? previous : []), value] : value;
    });
  }
  for (const argument of command.registeredArguments) {
    const parse = argument.parseArg;
    if (parse === undefined) continue;
    argument.argParser((value: string, previous: unknown) => inOurWords(argument.name(), value, argument.argChoices, () => parse(value, previous)));
  }
}

/**
 * A value a parser or commander's `choices` refused, said in rsapi's one-line form instead of commander's
 * (`command-argument value 'abc' is invalid for argument 'id'. ...`): the parser's own words (`"abc" is not a report
 * id (ids look like 42)`), or `--result must be one of good, decent, bad, not "great"` with the near miss
 * (`key must be one of base-url, ..., output, not "outptu"; did you mean "output"?`). A usage error: exit 2.
 */
function inOurWords<T>(name: string, value: string, choices: readonly string[] | undefined, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof InvalidArgumentError)) throw error;
    if (choices !== undefined && !choices.includes(value)) {
      const near = nearest(value, choices);
      throw new UsageError(`${name} must be one of ${choices.join(', ')}, not "${value}"${near === undefined ? '' : `; did you mean "${near}"?`}`);
    }
    // Named and shown as commander did: the flag when the parser's words leave it out, the value when they quote nothing.
    const said = error.message.replace(/\.$/, '');
    const named = said.includes(name) ? said : `${name}: ${said}`;
    throw new UsageError(said.includes('"') ? named : `${named}, not "${value}"`);
  }
}

function fieldListParser(value: string): string[] {
  const fields = value
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.length === 0) throw new InvalidArgumentError(`"${value}" names no field; give at least one, e.g. --fields id,url,score.`);
  return fields;
}

/** Flags every command accepts, before or after the command name. */
export function addGlobalOptions<Format extends string>(program: Command, outputFormats: readonly Format[], outputFormatsHelp: string) {
  return program
    .option('--base-url <url>', 'service address, site root or …/api/v1 (env RSAPI_BASE_URL)')
    .option('--api-key <key>', 'API key (env RSAPI_API_KEY; prefer `rsapi auth login`)')
    .option('--profile <name>', 'stored profile to use (env RSAPI_PROFILE)')
    .addOption(new Option('-o, --output <format>', `output format: ${outputFormatsHelp}`).choices(outputFormats))
    .option('--json', 'same as -o json; --json FIELDS (gh) = --json --fields FIELDS')
    .option('--jq <expression>', 'filter the JSON output with jq (strings printed raw); implies --json')
    .option('--fields <list>', 'fields/columns to show, comma-separated, in that order', fieldListParser)
    .option('-q, --quiet', 'print only identifiers (report ids, project names), one a line')
    .option('--wide', 'tables: show every column and value whole instead of fitting the terminal')
    .option('--no-color', 'no colour (also NO_COLOR=1; FORCE_COLOR=1 forces it)')
    .option('-v, --verbose', 'trace each request on stderr (method, URL, status, time, retries); a stack trace only for an unexpected error')
    .option('--timeout <seconds>', 'per-request timeout (default 30, report creation 120)', timeoutParser)
    .option('--retries <n>', 'retries after a failed attempt (default 2)', integerParser('--retries', 0, 10));
}

/**
 * The options a shared option helper declares, as the compiler infers them from the declaration: the type a
 * module that reads those flags takes (e.g. `DeclaredOptions<typeof addPagingOptions<[], {}, {}>>`, on a bare
 * command), so none is written by hand.
 */
export type DeclaredOptions<AddOptions extends (command: Command) => { opts(): OptionValues }> = ReturnType<ReturnType<AddOptions>['opts']>;
