// The program: root command, global options, the command tree, and running one invocation to an exit code.
import { Command, CommanderError, Help, type CommandUnknownOpts, type Option } from '@commander-js/extra-typings';
import { RsapiError } from '../api/errors.js';
import { ExitCode, type ExitCodeValue, exitCodeOf } from './runtime/exit-codes.js';
import { OUTPUT_FORMATS, outputFormatsHelp } from '../output/format-names.js';
import { VERSION } from '../version.js';
import { reportError } from './runtime/exit.js';
import { UsageError } from './runtime/errors.js';
import { forStderr } from './terminal/stderr.js';
import { addGlobalOptions, refuseEmptyValues } from './flags/options.js';
import { expandJsonFields } from './flags/json-fields.js';
import { HELP_TOPIC_NAMES, environmentLine, exitCodesText, fitExamples, fitHelpText, helpTopic, helpWidthOf, wrapText } from './commands/help-topics.js';
import { nearest } from '../suggest.js';
import { plural } from '../plural.js';
import type { Terminal } from './terminal/terminal.js';
import type { ParentCommand } from './runtime/handler.js';
import type { Invocation } from './runtime/invocation.js';
import { TOP_COMMANDS, topCommand, type TopCommand } from './command-index.js';

export { processTerminal } from './terminal/terminal.js';
export { createInvocation } from './runtime/invocation.js';
export { StdoutState } from './terminal/stdout-gone.js';

/** The end of the root help: examples, then the exit codes and the environment fitted to the help's width. */
function rootHelpEnd(width: number): string {
  const examples = fitExamples(
    [
      ['rsapi auth login'],
      ['rsapi reports list --result bad'],
      ['rsapi reports create https://example.com/ --fail-on bad'],
      ['rsapi projects list --all -o csv > projects.csv'],
      ['rsapi mock-server', 'try it all without a service'],
    ],
    width,
  );
  return `
Examples:
${examples}
${exitCodesText(width)}
${environmentLine(width)}`;
}

/**
 * The command tree for one invocation. Only the top-level commands that `argv` names are declared in full (their modules
 * loaded); the others stand as stubs of name and summary, which is all the root help and a typo's suggestion need.
 * `completion` needs the whole tree.
 */
export async function buildProgram(invocation: Invocation, argv: readonly string[]): Promise<CommandUnknownOpts> {
  const root = new Command('rsapi');
  const stubs = new Map<CommandUnknownOpts, TopCommand>();
  // Commander's width and that of the blocks added to the root help: the injected terminal's, 80 in a pipe.
  const { io } = invocation;
  const width = helpWidthOf(io.stdoutIsTTY ? io.columns : undefined);
  root
    .description('Command-line client of the Webpage Report Service API: audit reports on webpages, from a terminal, a script or CI.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .helpCommand('help [command]', 'show help for a command, or a topic: exit-codes, environment')
    // A command's help shows its own options and examples first; the global options come after them (afterAll).
    .configureHelp({
      showGlobalOptions: false,
      sortSubcommands: false,
      subcommandTerm(command) {
        return stubs.get(command as CommandUnknownOpts)?.term ?? Help.prototype.subcommandTerm.call(this, command);
      },
      // Commander wraps a description beside its term only when that leaves minWidthToWrap columns, and otherwise prints
      // it whole (a long option term such as --baseline <file|last|run:ID|since:D> did that at 80 columns). Beside the
      // term down to 30 columns; narrower than that the description goes under its term, wrapped to the width.
      minWidthToWrap: 30,
      formatItem(term, termWidth, description, helper) {
        const helpWidth = this.helpWidth ?? 80;
        if (!description || helpWidth - termWidth - 4 >= helper.minWidthToWrap) {
          return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
        }
        return `  ${term}\n      ${wrapText(description, helpWidth, 6)}`;
      },
    })
    .showSuggestionAfterError(true)
    .addHelpText('after', () => rootHelpEnd(width))
    .addHelpText('afterAll', ({ command }) => (command === root ? '' : globalOptionsHelp(command, width)));
  // The same command, typed with the global options: every verb's handler receives them typed.
  const program = addGlobalOptions(root, OUTPUT_FORMATS, outputFormatsHelp());
  const wanted = commandsNamed(program, argv);
  // Of a noun's verbs, the one argv names (none named: all of them, for the noun's help and a typo's hint).
  const verbWords = new Set(argv.filter((word) => !word.startsWith('-')));
  const declaring = (verbs: readonly TopCommand[]) =>
    verbs.some((verb) => namesCommand(verb, verbWords))
      ? {
          wanted: (verb: TopCommand) => namesCommand(verb, verbWords),
          stub: (parent: ParentCommand, verb: TopCommand) => void stubs.set(declareStub(parent, verb), verb),
        }
      : undefined;
  for (const top of TOP_COMMANDS) {
    if (wanted.size === TOP_COMMANDS.length) await (await top.load())(program, invocation);
    else if (wanted.has(top)) await (await top.load())(program, invocation, declaring(top.verbs ?? []));
    else stubs.set(declareStub(program, top), top);
  }
  applyToTree(program, (command) => {
    refuseEmptyValues(command);
    command.exitOverride();
    command.configureOutput({
      getOutHelpWidth: () => width,
      getErrHelpWidth: () => width,
      writeOut: (text) => invocation.io.stdout.write(fitHelpText(text, width)),
      writeErr: (text) => invocation.io.stderr.write(forStderr(text)),
      // Said in our words by commanderExit, from the error commander throws next.
      outputError: () => undefined,
    });
  });
  return program;
}

/** Whether a word of argv names the command (or one of its aliases). */
function namesCommand(command: TopCommand, words: ReadonlySet<string>): boolean {
  return words.has(command.name) || command.aliases.some((alias) => words.has(alias));
}

/** A command standing in for its declaration: listed by its parent's help, never run (a run loads the real one). */
function declareStub(program: ParentCommand, top: TopCommand): CommandUnknownOpts {
  const stub = program.command(top.name).description(top.summary);
  for (const alias of top.aliases) stub.alias(alias);
  return stub as unknown as CommandUnknownOpts;
}

/**
 * The top-level commands a run needs declared: the first word of argv that is not an option or an option's value
 * (`rsapi -o json reports list`), the command `help` names, or all of them for `completion`.
 */
function commandsNamed(program: ParentCommand, argv: readonly string[]): Set<TopCommand> {
  const takesValue = new Set(program.options.filter((option) => option.required || option.optional).flatMap((option) => [option.long, option.short]));
  const words: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index] as string;
    if (word === '--') break;
    if (word.startsWith('-')) {
      if (takesValue.has(word)) index++;
      continue;
    }
    words.push(word);
  }
  const [first, second] = words;
  if (first === 'completion') return new Set(TOP_COMMANDS);
  // `rsapi --limit 2 reports list`: a verb's option before the verb takes its value along; the command is the
  // first word that names one, so the misplaced flag can be pointed to (commanderExit).
  const named = topCommand((first === 'help' ? second : first) ?? '') ?? words.map(topCommand).find((top) => top !== undefined);
  return new Set(named ? [named] : []);
}

/**
 * The options every command accepts, as commander would list them at the help's width, for the end of a subcommand's
 * help. The width is given: a Help made here has none of its own, and at 80 columns fitHelpText cut every line again.
 */
function globalOptionsHelp(command: Command, width: number): string {
  const help = command.createHelp();
  help.prepareContext({ helpWidth: width });
  const options = globalOptionsOf(command, help);
  if (options.length === 0) return '';
  const termWidth = Math.max(...options.map((option) => help.optionTerm(option).length));
  const items = options.map((option) => help.formatItem(help.optionTerm(option), termWidth, help.optionDescription(option), help));
  return `\nGlobal options (before or after the command):\n${items.join('\n')}\n`;
}

/** The root's options a subcommand's help lists after its own (every one but --version): its help and its manual page. */
export function globalOptionsOf(command: CommandUnknownOpts | Command, help: Help = command.createHelp()): Option[] {
  help.showGlobalOptions = true;
  return help.visibleGlobalOptions(command as CommandUnknownOpts).filter((option) => option.long !== '--version');
}

/**
 * `rsapi help WORDS...`: the help of the command the words name; a word that names no command is a usage error
 * (commander alone would print the root help as if nothing were wrong).
 */
function helpTarget(
  program: CommandUnknownOpts,
  argv: string[],
  width: number,
): { argv: string[] } | { topic: string } | { unknown: string; suggestion?: string; path: string[] } {
  if (argv[0] !== 'help' || argv.length < 2) return { argv };
  const topic = helpTopic(argv[1] as string, width);
  if (topic !== undefined && argv.length === 2) return { topic };
  const words = argv.slice(1).filter((word) => !word.startsWith('-'));
  let current: CommandUnknownOpts = program;
  const path: string[] = [];
  for (const word of words) {
    const next = current.commands.find((command) => command.name() === word || command.aliases().includes(word));
    if (!next || next.name() === 'help') {
      return {
        unknown: word,
        suggestion: nearest(word, [...current.commands.map((command) => command.name()), ...(path.length === 0 ? HELP_TOPIC_NAMES : [])]),
        path,
      };
    }
    path.push(next.name());
    current = next;
  }
  return { argv: [...path, '--help'] };
}

function applyToTree(command: CommandUnknownOpts, apply: (command: CommandUnknownOpts) => void): void {
  apply(command);
  for (const sub of command.commands) applyToTree(sub, apply);
}

/** Runs one invocation and returns its exit code. Never throws. */
export async function run(givenArgv: string[], invocation: Invocation): Promise<ExitCodeValue> {
  const { io, signal } = invocation;
  invocation.secrets.registerInvocation(givenArgv, io.env);
  let argv: string[];
  try {
    argv = expandJsonFields(givenArgv, TOP_COMMANDS);
  } catch (error) {
    return reportError(error, io.stderr, { debug: false });
  }
  const program = await buildProgram(invocation, argv);
  const debug = io.env.RSAPI_DEBUG === '1';
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  const target = helpTarget(program, argv, helpWidthOf(io.stdoutIsTTY ? io.columns : undefined));
  if ('topic' in target) {
    io.stdout.write(target.topic);
    return ExitCode.ok;
  }
  if ('unknown' in target) {
    const where = target.path.length > 0 ? `rsapi ${target.path.join(' ')}` : 'rsapi';
    const hint = target.suggestion ? `did you mean "${target.suggestion}"? see \`${where} --help\`` : `see \`${where} --help\``;
    return reportError(new UsageError(`unknown command "${target.unknown}"${target.path.length > 0 ? ` for "${where}"` : ''}`, { hint }), io.stderr, {
      debug,
      verbose,
    });
  }
  try {
    await program.parseAsync(target.argv, { from: 'user' });
    return invocation.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error, io, commandWords(program, argv), program);
    if (signal.aborted && !(error instanceof RsapiError && exitCodeOf(error) !== ExitCode.interrupted)) {
      io.stderr.write('rsapi: interrupted\n');
      return ExitCode.interrupted;
    }
    return reportError(error, io.stderr, { debug, verbose });
  }
}

/** Commander's usage errors, said in our one-line form with a hint (a near miss, where a misplaced flag belongs, the help), exit 2. */
function commanderExit(error: CommanderError, io: Terminal, commandPath: string[], program: CommandUnknownOpts): ExitCodeValue {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
  // `rsapi help` asked for help (commander exits 0); `rsapi reports` without a verb is help shown for a usage error.
  if (error.code === 'commander.help') return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  if (error.code === 'commander.executeSubCommandAsync') return ExitCode.usage;
  const where = ['rsapi', ...commandPath].join(' ');
  const { message, nearMiss: commandersMiss } = commanderWords(error, commandPath.length > 0 ? commandPath.join(' ') : 'rsapi');
  const nearMiss = commandersMiss ?? (error.code === 'commander.unknownCommand' ? nearestSubcommand(program, commandPath, error.message) : undefined);
  const help = `see \`${where} --help\``;
  const misplaced = error.code === 'commander.unknownOption' ? misplacedOptionHint(program, error.message, commandPath) : undefined;
  const hint = misplaced ?? (nearMiss === undefined ? help : `did you mean "${nearMiss}"? ${help}`);
  io.stderr.write(forStderr(`rsapi: ${message}\nhint: ${hint}\n`));
  return ExitCode.usage;
}

/**
 * `rsapi reports lst`: the verb of `rsapi reports` nearest to the unknown word. Commander suggests near options, but
 * not near subcommands of a command whose verbs stand as stubs.
 */
function nearestSubcommand(program: CommandUnknownOpts, commandPath: readonly string[], message: string): string | undefined {
  const word = /'([^']*)'/.exec(message)?.[1];
  let parent: CommandUnknownOpts | undefined = program;
  for (const name of commandPath) parent = parent?.commands.find((command) => command.name() === name);
  if (word === undefined || parent === undefined) return undefined;
  return nearest(
    word,
    parent.commands.filter((command) => command.name() !== 'help').flatMap((command) => [command.name(), ...command.aliases()]),
  );
}

/**
 * What commander's message says, in our words: `unknown option "--colour"` for `error: unknown option '--colour'
 * (Did you mean --color?)`, with the near miss apart for the hint. Commander words its messages in one fixed way per
 * code; a message of another shape is shown as it is.
 */
function commanderWords(error: CommanderError, command: string): { message: string; nearMiss?: string } {
  const text = error.message.replace(/^error: /, '');
  const quoted = [...text.matchAll(/'([^']*)'/g)].map((match) => match[1] ?? '');
  const nearMiss = /\(Did you mean (?:one of )?([^?,)]+)\?\)/.exec(text)?.[1]?.trim();
  const flag = (flags: string | undefined) =>
    (flags ?? '')
      .replace(/\s*[<[].*$/, '')
      .split(/,\s*/)
      .at(-1) ?? '';
  switch (error.code) {
    case 'commander.unknownOption':
      return { message: `unknown option "${quoted[0]}"`, nearMiss };
    case 'commander.unknownCommand':
      return { message: `unknown command "${quoted[0]}"${command === 'rsapi' ? '' : ` for "rsapi ${command}"`}`, nearMiss };
    case 'commander.excessArguments': {
      const [expected, got] = [...text.matchAll(/\d+/g)].map(Number);
      return { message: `${command} takes ${expected ? plural(expected, 'argument') : 'no argument'}, not ${got}` };
    }
    case 'commander.missingArgument':
      return { message: `${command} needs its <${quoted[0]}> argument` };
    case 'commander.optionMissingArgument':
      return { message: `${flag(quoted[0])} needs a value` };
    case 'commander.conflictingOption':
      return { message: `${flag(quoted[0])} and ${flag(quoted[1])} cannot be given together` };
    default:
      return { message: text.replace(/\.$/, '') };
  }
}

/**
 * `rsapi --limit 2 reports list`: a verb's option given before the verb is unknown where it stands. Say which
 * command has it (the one named, else any loaded one), so the fix is to move it, not to look it up.
 */
function misplacedOptionHint(program: CommandUnknownOpts, message: string, commandPath: string[]): string | undefined {
  const flag = /'(-[^'=]+)/.exec(message)?.[1];
  if (!flag) return undefined;
  const owners: string[] = [];
  applyToTree(program, (command) => {
    if (command !== program && command.options.some((option) => option.long === flag || option.short === flag)) owners.push(commandPathOf(command));
  });
  const named = commandPath.join(' ');
  const owner = owners.includes(named) ? named : owners.length === 1 ? owners[0] : undefined;
  if (owner) return `${flag} is an option of \`rsapi ${owner}\`: put it after the command's name (\`rsapi ${owner} ${flag} ...\`)`;
  if (owners.length > 1)
    return `${flag} is an option of ${owners
      .slice(0, 3)
      .map((path) => `\`rsapi ${path}\``)
      .join(', ')}${owners.length > 3 ? ' and more' : ''}: put it after the command's name`;
  return undefined;
}

function commandPathOf(command: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let at: CommandUnknownOpts | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** The subcommands named in argv (`reports list`): never an option's value, which may be the key. */
function commandWords(program: CommandUnknownOpts, argv: string[]): string[] {
  const words: string[] = [];
  let current: CommandUnknownOpts = program;
  for (const word of argv) {
    const next = current.commands.find((command) => command.name() === word || command.aliases().includes(word));
    if (!next) continue;
    words.push(next.name());
    current = next;
  }
  return words;
}
