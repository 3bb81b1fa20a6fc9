// The verdict flags of `reports list|create|stats` (--assert [PATH], --allow-empty, --codequality FILE): declared
// here, checked in the verb's plan (the file read and every rule checked before any request).
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import type { CommandContext } from '../runtime/context.js';
import type { DeclaredOptions } from '../flags/options.js';
import { checkOutputPath } from '../runtime/write.js';
import { UsageError } from '../runtime/errors.js';
import { assertPath, loadAssertions } from './assertions-file.js';
import type { AssertionSet } from './rules.js';
import type { RunFile } from '../runtime/run-files.js';

export function addVerdictOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(
  command: Command<Args, Opts, GlobalOpts>,
) {
  return command
    .option('--assert [path]', 'judge every report by the rules of this assertions file (default rsapi.config.json; RSAPI_ASSERT): error rules exit 10')
    .addOption(VERDICT_OPTIONS.allowEmpty())
    .addOption(VERDICT_OPTIONS.codequality());
}

/** --allow-empty and --codequality, declared once: the verbs that judge reports and `rsapi audit` take them in the same words. */
export const VERDICT_OPTIONS = {
  allowEmpty: () => new Option('--allow-empty', 'a gate or assertion over no report at all passes (by default it fails: a gate over nothing proves nothing)'),
  codequality: () => new Option('--codequality <file>', "write GitLab's Code Quality report: one finding per failing check, score or result per URL"),
};

export type VerdictFlags = DeclaredOptions<typeof addVerdictOptions<[], {}, {}>>;

/** The verdict flags' part of a plan: the output path checked, the assertions file read and checked. */
export function checkVerdictFlags(ctx: CommandContext, flags: VerdictFlags): { assertions?: AssertionSet } {
  if (flags.codequality !== undefined) checkOutputPath(flags.codequality, '--codequality');
  refuseUrlForAssert(flags);
  const path = assertPath(flags.assert, ctx.io.env);
  return path === undefined ? {} : { assertions: loadAssertions(path) };
}

/** The files the verdict flags read and write, for checkRunFiles (no output may be an input or another output of the run). */
export function verdictFiles(flags: VerdictFlags, env: Record<string, string | undefined> = {}): RunFile[] {
  return [
    { flag: '--assert', path: assertPath(flags.assert, env), reads: true },
    { flag: '--codequality', path: flags.codequality, writes: true },
  ];
}

/**
 * `--assert [path]` takes the next word: `reports create --assert https://example.com/` would read the URL as the file.
 * Part of checkVerdictFlags; `reports create` calls it first, before it says that no URL was given.
 */
export function refuseUrlForAssert(flags: Pick<VerdictFlags, 'assert'>): void {
  if (typeof flags.assert === 'string' && /^https?:\/\//i.test(flags.assert)) {
    throw new UsageError(`--assert took ${flags.assert} for its file`, {
      hint: 'give the file as --assert=PATH, or put --assert after the URLs (alone it reads rsapi.config.json)',
    });
  }
}
