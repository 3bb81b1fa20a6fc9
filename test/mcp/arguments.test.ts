// A tool's arguments (src/mcp/arguments.ts): checked as the CLI checks its flags, each refusal naming the argument.
import { Option } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { integerParser } from '../../src/cli/flags/options.js';
import { UsageError } from '../../src/errors.js';
import { booleanArg, checkArguments, inputSchema, integerArg, listArg, optionArg, stringArg } from '../../src/mcp/arguments.js';

const sort = optionArg(new Option('--sort <direction>', 'sort direction').choices(['asc', 'desc'] as const), 'sort', ['asc', 'desc']);
const page = optionArg(new Option('--page <n>', 'page to fetch').argParser(integerParser('--page', 1)), 'page');
const ARGS = [
  sort,
  page,
  booleanArg('by_project', 'one row per project'),
  integerArg('limit', 'rows', { min: 1, max: 9, default: 5 }),
  stringArg('cursor', 'where to go on'),
  listArg('ids', 'ids', stringArg('id', 'id'), { min: 1, max: 2 }),
] as const;

const refusal = (given: unknown) => {
  try {
    checkArguments('a_tool', ARGS, given);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error('accepted');
};

describe('tool arguments', () => {
  it('are checked by the flag their argument stands for, the message naming the argument', () => {
    expect(checkArguments('a_tool', ARGS, { sort: 'asc', page: '3' })).toEqual({ sort: 'asc', page: 3, limit: 5 });
    expect(refusal({ sort: 'up' })).toBe('sort: "up" is not one of asc, desc');
    expect(refusal({ page: '0' })).toBe('page: must be a whole number of at least 1');
    expect(refusal({ page: ' ' })).toBe('page: is empty');
  });

  it('refuse a wrong type, an unknown name, a list too long, naming what is wrong', () => {
    expect(refusal({ by_project: 'yes' })).toBe('by_project: must be true or false, not "yes"');
    expect(refusal({ limit: 10 })).toBe('limit: must be a whole number from 1 to 9, not 10');
    expect(refusal({ limt: 3 })).toBe('limt: a_tool has no such argument');
    expect(refusal({ ids: ['1', 2] })).toBe('ids[1]: must be text, not 2');
    expect(refusal({ ids: ['1', '2', '3'] })).toBe('ids: 3 given; at most 2 in one call');
    expect(refusal([1])).toBe('the arguments of a_tool must be an object, not a list');
  });

  it('take null as not given, and apply defaults', () => {
    expect(checkArguments('a_tool', ARGS, { cursor: null, limit: null })).toEqual({ limit: 5 });
    expect(checkArguments('a_tool', ARGS, undefined)).toEqual({ limit: 5 });
  });

  it('describe themselves as JSON Schema, with the choices of the flag', () => {
    const schema = inputSchema(ARGS) as { properties: Record<string, unknown>; additionalProperties: boolean };
    expect(schema.properties.sort).toEqual({ type: 'string', description: 'sort direction', enum: ['asc', 'desc'] });
    expect(schema.properties.limit).toEqual({ type: 'integer', description: 'rows', minimum: 1, maximum: 9, default: 5 });
    expect(schema.additionalProperties).toBe(false);
  });

  it('refuse to stand for a flag whose choices differ from the constant that types them', () => {
    expect(() => optionArg(new Option('--sort <d>', 'x').choices(['asc', 'desc'] as const), 'sort', ['up', 'down'])).toThrow(/other choices than --sort/);
  });
});
