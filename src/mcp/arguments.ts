// A tool's arguments: their JSON Schema for tools/list and their checks, taken from the CLI's own option declarations
// where a flag says the same (description, choices, value parser), so `--help` and the tools never disagree.
import type { Argument, Option } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import { nearest } from '../suggest.js';

/** The part of JSON Schema the tools use. */
export interface JsonSchema {
  type: 'string' | 'integer' | 'boolean' | 'array';
  description?: string;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
}

/** One argument of a tool: its name, its schema, and the check that turns a JSON value into what the run takes. */
export interface ToolArg<Name extends string = string, Value = unknown> {
  readonly name: Name;
  readonly schema: JsonSchema;
  readonly required?: boolean;
  /** The CLI flag it stands for (`--project`): an error worded for the flag is said of the argument (inToolWords). */
  readonly flag?: string;
  check(value: unknown): Value;
}

/** The checked arguments of a tool, by name; an argument not given is undefined (a default is applied by its check). */
export type ArgValues<Args extends readonly ToolArg[]> = { [A in Args[number] as A['name']]?: ReturnType<A['check']> };

/** A usage error naming the argument: `result: "worst" is not one of good, decent, bad`. */
export function argumentError(name: string, problem: string, hint?: string): UsageError {
  return new UsageError(`${name}: ${problem}`, { hint });
}

/**
 * The argument a CLI flag declares: its help text as the description, its choices as the enum, its value parser as the
 * check (whose message, written for the flag, is said of the argument). `choices`, the constant the flag's choices come
 * from, types the value (and must be the flag's).
 */
export function optionArg<const Name extends string, Value extends string = string>(
  option: Option | undefined,
  name: Name,
  choices?: readonly Value[],
): ToolArg<Name, Value> {
  if (!option) throw new Error(`no such option for the tool argument ${name}`);
  const flag = option.long ?? option.name();
  const allowed = option.argChoices;
  if (choices && allowed?.join() !== choices.join()) throw new Error(`the tool argument ${name} names other choices than ${flag}`);
  const parse = option.parseArg as ((value: string, previous: unknown) => unknown) | undefined;
  return {
    name,
    flag,
    schema: { type: 'string', description: option.description, ...(allowed ? { enum: allowed } : {}) },
    check(value) {
      const text = textOf(name, value);
      if (allowed && !allowed.includes(text)) throw argumentError(name, `${JSON.stringify(text)} is not one of ${allowed.join(', ')}`);
      return (parse ? withArgumentName(name, flag, () => parse(text, undefined)) : text) as Value;
    },
  };
}

/** The argument a CLI command's positional argument declares (`reports show [id]`): its description and parser. */
export function positionalArg<const Name extends string>(argument: Argument | undefined, name: Name): ToolArg<Name, string> {
  if (!argument) throw new Error(`no such argument for the tool argument ${name}`);
  const parse = argument.parseArg as ((value: string, previous: unknown) => string) | undefined;
  return {
    name,
    schema: { type: 'string', description: argument.description },
    check: (value) => {
      const text = textOf(name, value, { numbers: true });
      return parse ? withArgumentName(name, argument.name(), () => parse(text, undefined)) : text;
    },
  };
}

export function booleanArg<const Name extends string>(name: Name, description: string): ToolArg<Name, boolean> {
  return {
    name,
    schema: { type: 'boolean', description },
    check(value) {
      if (typeof value !== 'boolean') throw argumentError(name, `must be true or false, not ${describeValue(value)}`);
      return value;
    },
  };
}

export function stringArg<const Name extends string>(name: Name, description: string): ToolArg<Name, string> {
  return { name, schema: { type: 'string', description }, check: (value) => textOf(name, value) };
}

export function integerArg<const Name extends string>(
  name: Name,
  description: string,
  bounds: { min: number; max: number; default?: number },
): ToolArg<Name, number> {
  return {
    name,
    schema: { type: 'integer', description, minimum: bounds.min, maximum: bounds.max, ...(bounds.default === undefined ? {} : { default: bounds.default }) },
    check(value) {
      const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < bounds.min || n > bounds.max) {
        throw argumentError(name, `must be a whole number from ${bounds.min} to ${bounds.max}, not ${describeValue(value)}`);
      }
      return n;
    },
  };
}

/** A list of items each checked as `item` checks one (`ids[3]: "x" is not a report id`), at least `min` and at most `max`. */
export function listArg<const Name extends string, Item>(
  name: Name,
  description: string,
  item: ToolArg<string, Item>,
  bounds: { min: number; max: number; tooMany?: string },
): ToolArg<Name, Item[]> {
  return {
    name,
    schema: { type: 'array', description, items: { ...item.schema, description: undefined }, minItems: bounds.min, maxItems: bounds.max },
    check(value) {
      if (!Array.isArray(value)) throw argumentError(name, `must be a list, not ${describeValue(value)}`);
      if (value.length < bounds.min) throw argumentError(name, `give at least ${bounds.min}`);
      if (value.length > bounds.max) throw argumentError(name, `${value.length} given; at most ${bounds.max} in one call`, bounds.tooMany);
      return value.map((entry, index) => renamed(`${name}[${index}]`, item.name, () => item.check(entry)));
    },
  };
}

/**
 * Checks a call's arguments against the tool's: an unknown name (with the nearest known one), a missing required
 * argument or a value refused by its check is a usage error naming the argument; nothing has been sent then.
 */
export function checkArguments<Args extends readonly ToolArg[]>(tool: string, args: Args, given: unknown): ArgValues<Args> {
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
    throw new UsageError(`the arguments of ${tool} must be an object, not ${describeValue(given)}`);
  }
  const values: Record<string, unknown> = {};
  const names = args.map((arg) => arg.name);
  for (const [name, value] of Object.entries(given ?? {})) {
    const arg = args.find((candidate) => candidate.name === name);
    if (!arg) {
      const near = nearest(name, names);
      throw argumentError(
        name,
        `${tool} has no such argument`,
        near ? `did you mean "${near}"?` : names.length > 0 ? `its arguments: ${names.join(', ')}` : `it takes none`,
      );
    }
    // JSON's null stands for "not given", as a flag left out.
    if (value !== null && value !== undefined) values[name] = arg.check(value);
  }
  for (const arg of args) {
    if (values[arg.name] === undefined && arg.schema.default !== undefined) values[arg.name] = arg.schema.default;
    if (arg.required && values[arg.name] === undefined) throw argumentError(arg.name, `is required by ${tool}`);
  }
  return values as ArgValues<Args>;
}

/** The schema of a tool's arguments, for tools/list. */
export function inputSchema(args: readonly ToolArg[]): Record<string, unknown> {
  const required = args.filter((arg) => arg.required).map((arg) => arg.name);
  return {
    type: 'object',
    properties: Object.fromEntries(args.map((arg) => [arg.name, arg.schema])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** A string argument as the CLI gets a flag's value: text, not empty (an empty value is a mistake, as refuseEmptyValues says). */
function textOf(name: string, value: unknown, options: { numbers?: boolean } = {}): string {
  if (options.numbers && typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value !== 'string') throw argumentError(name, `must be text, not ${describeValue(value)}`);
  if (value.trim() === '') throw argumentError(name, 'is empty', 'leave the argument out instead');
  return value;
}

/** Runs a CLI parser; its message, written for the flag (`--min-score must be ...`), is said of the argument instead. */
function withArgumentName<Value>(name: string, flag: string, parse: () => Value): Value {
  try {
    return parse();
  } catch (error) {
    if (error instanceof UsageError) throw renamedError(name, flag, error);
    const message = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
    throw argumentError(name, message.startsWith(flag) ? message.slice(flag.length).trim() : message);
  }
}

/** An item's check names the item (`ids[2]`) rather than the list's item argument. */
function renamed<Value>(name: string, itemName: string, check: () => Value): Value {
  try {
    return check();
  } catch (error) {
    if (error instanceof UsageError) throw renamedError(name, itemName, error);
    throw error;
  }
}

function renamedError(name: string, old: string, error: UsageError): UsageError {
  const message = error.message.startsWith(`${old}:`) ? error.message.slice(old.length + 1).trim() : error.message;
  return new UsageError(`${name}: ${message}`, { hint: error.hint, lines: error.lines });
}

/** A value as a message names it: `"abc"`, `2`, `a list`, `an object`, `null`. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : String(value);
}
