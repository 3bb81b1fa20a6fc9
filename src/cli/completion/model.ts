// What the command tree offers at each command path, walked from commander into plain data the script generators read.
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { CHECK_IDS, checkName } from '../../api/model/checks.js';

export interface OptionSpec {
  /** `-o`, `--output`. */
  names: string[];
  description: string;
  takesValue: boolean;
  /** Allowed values (commander `choices`). */
  choices: string[];
  /** The value is a file (`<path>`, `<file>`): complete file names. */
  files: boolean;
  /** The values are listed at completion time by this program run with these arguments (stored profile names). */
  valuesFrom?: string;
  /** The value is a comma-separated list of these (check ids): each item after a comma completes too. */
  listOf?: readonly ListItem[];
}

/** An item of a comma-separated list, and the words zsh and fish show beside it (a check's name). */
export interface ListItem {
  name: string;
  description: string;
}

/** Lists the stored profile names, one a line, with no request: what `--profile` and `auth switch` complete to. */
export const PROFILE_NAMES_COMMAND = 'auth status --all -q';

/** Positional arguments whose values are listed at completion time, by command path. */
const DYNAMIC_ARGUMENTS: Readonly<Record<string, readonly (string | undefined)[]>> = { 'auth switch': [PROFILE_NAMES_COMMAND] };

export interface CommandSpec {
  /** Canonical names from the root, space-separated; '' for the root. */
  path: string;
  names: string[];
  description: string;
  children: CommandSpec[];
  /** Its own options (help included); valid on this command and below it. */
  options: OptionSpec[];
  /** Allowed values of each positional argument, by position. */
  argChoices: string[][];
  /** For each positional argument whose values are listed at completion time: the program's arguments that list them. */
  argValuesFrom: readonly (string | undefined)[];
}

/** Turns the model into a shell's completion script for the program named `bin`. */
export type ScriptGenerator = (tree: CommandSpec, bin: string) => string;

/** The whole program, from its root command. */
export function describeProgram(root: CommandUnknownOpts): CommandSpec {
  return describeCommand(root, '');
}

function describeCommand(command: CommandUnknownOpts, path: string): CommandSpec {
  const help = command.createHelp();
  const own = help.visibleOptions(command);
  const subcommands = help.visibleCommands(command);
  const spec: CommandSpec = {
    path,
    names: [command.name(), ...command.aliases()],
    description: command.description(),
    options: own.map(describeOption),
    argChoices: command.registeredArguments.map((argument) => argument.argChoices ?? []),
    argValuesFrom: DYNAMIC_ARGUMENTS[path] ?? [],
    children: [],
  };
  const childPath = (name: string) => (path ? `${path} ${name}` : name);
  spec.children = subcommands.map((sub) => describeCommand(sub, childPath(sub.name())));
  // The implicit `help [command]` completes its siblings' names.
  const helpChild = spec.children.find((child) => child.names[0] === 'help' && child.children.length === 0);
  if (helpChild) helpChild.argChoices = [spec.children.filter((child) => child !== helpChild).flatMap((child) => child.names)];
  return spec;
}

function describeOption(option: Option): OptionSpec {
  return {
    names: [option.short, option.long].filter((name): name is string => Boolean(name)),
    description: option.description,
    takesValue: option.required || option.optional,
    choices: option.argChoices ?? [],
    files: /<(path|file)\b/i.test(option.flags),
    valuesFrom: option.long === '--profile' ? PROFILE_NAMES_COMMAND : undefined,
    listOf: listedValues(option),
  };
}

/**
 * Flags whose value is a comma-separated list of known items, by long name: the flags taking check ids. The items are
 * written into the script, so a TAB runs no program. (Not told by the parser: the tree wraps every flag's parser.)
 */
const LIST_FLAGS: Readonly<Record<string, readonly ListItem[]>> = {
  '--fail-on-check': CHECK_IDS.map((id) => ({ name: id, description: checkName(id) })),
};

function listedValues(option: Option): readonly ListItem[] | undefined {
  return option.long === undefined ? undefined : LIST_FLAGS[option.long];
}

/** Visits every command, depth first, parents before children. */
export function walk(spec: CommandSpec, visit: (spec: CommandSpec, ancestors: CommandSpec[]) => void, ancestors: CommandSpec[] = []): void {
  visit(spec, ancestors);
  for (const child of spec.children) walk(child, visit, [...ancestors, spec]);
}

/** Every option valid on a command: its own and its ancestors'. */
export function optionsAt(spec: CommandSpec, ancestors: CommandSpec[]): OptionSpec[] {
  const inherited = ancestors.flatMap((ancestor) => ancestor.options.filter((option) => !option.names.includes('--help')));
  return [...spec.options, ...inherited];
}

/** The program's name as it may stand in a shell function's name. */
export function identifier(bin: string): string {
  return bin.replace(/\W/g, '_');
}
