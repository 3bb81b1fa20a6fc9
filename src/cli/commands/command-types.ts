// What an index of commands holds (the root's, a noun's verbs): enough to list a command in help, and how to load it.
import type { Invocation, ParentCommand } from '../runtime/handler.js';

export interface TopCommand {
  name: string;
  aliases: readonly string[];
  summary: string;
  /** How the root help's command list shows it, as commander would from the declaration. */
  term: string;
  load(): Promise<Register>;
  /** A noun's verbs (reports, history): a run declares in full only the one it names. */
  verbs?: readonly TopCommand[];
}

/** Declares a command under `parent`; a noun given `declaring` declares in full only the verbs it wants. */
export type Register = (parent: ParentCommand, invocation: Invocation, declaring?: Declaring) => void | Promise<void>;

/** How a noun declares its verbs: the ones `wanted` in full, the others as stubs that its help lists (`stub`). */
export interface Declaring {
  wanted(verb: TopCommand): boolean;
  stub(parent: ParentCommand, verb: TopCommand): void;
}
