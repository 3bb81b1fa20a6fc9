// The root help's list of commands stands in for their declarations (start-up): it must say what they say.
import { Command, Help } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { TOP_COMMANDS } from '../../src/cli/command-index.js';
import { HISTORY_VERBS } from '../../src/cli/commands/history/verbs.js';
import { REPORT_VERBS } from '../../src/cli/commands/reports/verbs.js';
import type { ParentCommand } from '../../src/cli/runtime/handler.js';
import { createInvocation } from '../../src/cli/runtime/invocation.js';
import { testTerminal } from '../helpers/run.js';

describe('the index of top-level commands', () => {
  it.each(TOP_COMMANDS.map((top) => [top.name, top] as const))('%s: name, aliases, summary and usage term equal its declaration', async (_name, top) => {
    const program = new Command('rsapi') as unknown as ParentCommand;
    const { terminal, cleanup } = testTerminal({});
    cleanup();
    (await top.load())(program, createInvocation({ terminal, signal: new AbortController().signal }));
    const declared = program.commands[0]!;
    expect(declared.name()).toBe(top.name);
    expect(declared.aliases()).toEqual(top.aliases);
    expect(declared.description()).toBe(top.summary);
    expect(new Help().subcommandTerm(declared)).toBe(top.term);
  });
});

describe.each([
  ['reports', REPORT_VERBS],
  ['history', HISTORY_VERBS],
] as const)('the index of the verbs of %s', (noun, verbs) => {
  it.each(verbs.map((verb) => [verb.name, verb] as const))(`${noun} %s: name, aliases, summary and usage term equal its declaration`, async (_name, verb) => {
    const parent = new Command(noun) as unknown as ParentCommand;
    const { terminal, cleanup } = testTerminal({});
    cleanup();
    await (await verb.load())(parent, createInvocation({ terminal, signal: new AbortController().signal }));
    const declared = parent.commands[0]!;
    expect(declared.name()).toBe(verb.name);
    expect(declared.aliases()).toEqual(verb.aliases);
    expect(declared.description()).toBe(verb.summary);
    expect(new Help().subcommandTerm(declared)).toBe(verb.term);
  });

  it(`names every verb \`${noun} --help\` lists, in its order`, async () => {
    const top = TOP_COMMANDS.find((command) => command.name === noun)!;
    expect(top.verbs).toBe(verbs);
    const program = new Command('rsapi') as unknown as ParentCommand;
    const { terminal, cleanup } = testTerminal({});
    cleanup();
    await (await top.load())(program, createInvocation({ terminal, signal: new AbortController().signal }));
    expect(program.commands[0]!.commands.map((command) => command.name())).toEqual(verbs.map((verb) => verb.name));
  });
});
