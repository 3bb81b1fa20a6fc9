// The CLI's declarations of the verbs the tools stand for, read for their descriptions, choices and value parsers
// (one source for every face of a command): declared on a parent of their own, never run.
import { Command, type Argument, type Option } from '@commander-js/extra-typings';
import type { ParentCommand } from '../cli/runtime/handler.js';

/** The command `declare` makes (`declareList` of `reports list`), declared under a throwaway parent. */
export function declared<Declared>(declare: (parent: ParentCommand) => Declared): Declared {
  return declare(new Command() as unknown as ParentCommand);
}

/** A declared command's option by its long flag (`--project`). */
export function flagOf(command: { readonly options: readonly Option[] }, flag: string): Option | undefined {
  return command.options.find((option) => option.long === flag);
}

/** A declared command's positional argument by name (`id`). */
export function argumentOf(command: { readonly registeredArguments: readonly Argument[] }, name: string): Argument | undefined {
  return command.registeredArguments.find((argument) => argument.name() === name);
}
