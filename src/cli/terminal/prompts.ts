// Asking a person: masked secrets, confirmations. The prompt library is loaded only when a prompt is shown.
import { InterruptedError } from '../../api/errors.js';
import { UsageError } from '../../errors.js';
import { readUserFile } from '../runtime/files.js';
import { readAll, type Terminal } from './terminal.js';

/** What reading a secret needs of the run's secrets (runtime/secrets.ts): to register it, so that no output shows it. */
export interface SecretRegister {
  register(value: string): void;
}

/** Prompts need a person at both ends: input from a terminal, and a terminal to draw on. */
export function canPrompt(io: Terminal): boolean {
  return io.stdinIsTTY && io.stderrIsTTY;
}

export async function promptSecret(io: Terminal, secrets: SecretRegister, message: string): Promise<string> {
  const { default: password } = await import('@inquirer/password');
  // No ctrl+t reveal: a revealed secret lands in terminal scrollback, screen shares and script(1) logs.
  const value = await interruptible(password({ message, mask: '*', toggleMask: false }, { input: io.stdin, output: io.stderr as NodeJS.WritableStream }));
  secrets.register(value);
  return value;
}

/** `validate` returns true, or a message shown under the prompt while it asks again. */
export async function promptText(io: Terminal, message: string, defaultValue?: string, validate?: (value: string) => true | string): Promise<string> {
  const { default: input } = await import('@inquirer/input');
  return interruptible(input({ message, default: defaultValue, validate }, { input: io.stdin, output: io.stderr as NodeJS.WritableStream }));
}

/** One of `choices`, picked with the arrow keys; `selected` is where the cursor starts. */
export async function promptSelect(io: Terminal, message: string, choices: { value: string; name: string }[], selected?: string): Promise<string> {
  const { default: select } = await import('@inquirer/select');
  return interruptible(select({ message, choices, default: selected }, { input: io.stdin, output: io.stderr as NodeJS.WritableStream }));
}

export async function promptConfirm(io: Terminal, message: string): Promise<boolean> {
  const { default: confirm } = await import('@inquirer/confirm');
  return interruptible(confirm({ message, default: false }, { input: io.stdin, output: io.stderr as NodeJS.WritableStream }));
}

/** Ctrl-C in a prompt (raw mode: no SIGINT) is an interruption, exit 130, not an unexpected failure. */
async function interruptible<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new InterruptedError();
    throw error;
  }
}

/**
 * Reads a secret from stdin (a pipe or a file): the first line, without its line end. Standard input on a
 * terminal would show the secret as it is typed: there the masked prompt asks instead, or, with no terminal
 * to draw it on, the run is refused.
 */
export async function readSecretFromStdin(io: Terminal, secrets: SecretRegister, what: string, signal?: AbortSignal): Promise<string> {
  refuseSecretFromTerminalStdin(io, what);
  if (io.stdinIsTTY) return promptSecret(io, secrets, what);
  const text = await readAll(io.stdin, signal);
  const value = text.split(/\r?\n/)[0] ?? '';
  if (!value) throw new UsageError(`no ${what} on standard input`);
  secrets.register(value);
  return value;
}

/**
 * A secret to read from stdin (--with-token, --password-stdin) where stdin is a terminal with no screen to draw a
 * masked prompt on: refused, in a verb's plan too, before anything else is read or sent.
 */
export function refuseSecretFromTerminalStdin(io: Terminal, what: string): void {
  if (io.stdinIsTTY && !canPrompt(io)) {
    throw new UsageError(`standard input is a terminal: the ${what} would show as it is typed`, {
      hint: `pipe it in or redirect it from a file (\`< file\`)`,
    });
  }
}

export async function readSecretFromFile(path: string, secrets: SecretRegister, what: string): Promise<string> {
  const text = await readUserFile(path, `${what} file`);
  const value = text.split(/\r?\n/)[0] ?? '';
  if (!value) throw new UsageError(`the ${what} file ${path} is empty`);
  secrets.register(value);
  return value;
}

function refusal(why: string): UsageError {
  return new UsageError(`refusing to delete without confirmation: ${why}`, { hint: 'pass --yes to delete from a script' });
}

/** A deletion without --yes where no terminal can be asked: refused up front, before ids are read or anything is sent. */
export function refuseWhereNobodyCanBeAsked(io: Terminal, yes: boolean | undefined): void {
  if (!yes && !canPrompt(io)) throw refusal('no terminal to ask on');
}

/**
 * Destructive commands: --yes goes ahead; a terminal is asked; anything else is refused (exit 2)
 * so that a script never deletes without saying so. `stdinRead`: stdin (a terminal) was read to its end for the
 * ids, so the answer is read from the terminal itself (/dev/tty), as stdin has nothing more to give.
 */
export async function confirmOrRefuse(io: Terminal, yes: boolean | undefined, question: string, options: { stdinRead?: boolean } = {}): Promise<boolean> {
  if (yes) return true;
  refuseWhereNobodyCanBeAsked(io, yes);
  if (!options.stdinRead) return promptConfirm(io, question);
  const tty = io.openTty?.();
  if (!tty) throw refusal('standard input was read for the ids and the terminal cannot be opened to ask');
  try {
    return await promptConfirm({ ...io, stdin: tty.input }, question);
  } finally {
    tty.close();
  }
}
