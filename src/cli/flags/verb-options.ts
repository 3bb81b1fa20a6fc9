// The option groups several verbs share: paging and sort (the lists), and the gates (list, show, create). Apart from
// options.ts so the root help, which declares no verb in full, loads none of what they need (the record model, checks).
import { InvalidArgumentError, Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { PER_PAGE_VALUES, SORT_DIRECTIONS } from '../../api/list-params.js';
import { RESULTS } from '../../api/model/report-model.js';
import { toNumber } from '../../api/model/record.js';
import { CHECK_IDS, isCheckId, type CheckId } from '../../api/model/checks.js';
import { nearest } from '../../suggest.js';
import { choiceOption, integerParser, type DeclaredOptions } from './options.js';

/** The importances a gate can name: `low` would fail on every report, so it is not offered. */
export const GATE_IMPORTANCES = ['high', 'medium'] as const;
export type GateImportance = (typeof GATE_IMPORTANCES)[number];

/**
 * --fail-on-check's value: check ids, comma-separated. An unknown id is a usage error before any request, with the
 * nearest id when it looks like a typo (`titel` -> `title`).
 */
export function parseCheckIds(value: string): CheckId[] {
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0) throw new InvalidArgumentError(`"${value}" names no check; give at least one check id, e.g. --fail-on-check title,meta_description.`);
  const unknown = ids.filter((id) => !isCheckId(id));
  if (unknown.length > 0) {
    const first = unknown[0] ?? '';
    const near = nearest(first, CHECK_IDS);
    const which = unknown.length === 1 ? `unknown check id "${first}"` : `unknown check ids ${unknown.map((id) => `"${id}"`).join(', ')}`;
    const advice = near ? `did you mean "${near}"?` : 'the ids are listed by `rsapi reports stats --checks`';
    throw new InvalidArgumentError(`${which}; ${advice}`);
  }
  return [...new Set(ids as CheckId[])];
}

/**
 * `reports list --failing-check` / `--passing-check`: repeatable and comma-separated (`--failing-check title
 * --failing-check meta_description,h1`). Here, not in check-filter.ts, which loads only when the flags are given.
 */
export function collectCheckIds(value: string, previous: string[] | undefined): string[] {
  return [...new Set([...(previous ?? []), ...parseCheckIds(value)])];
}

export function addPagingOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(command: Command<Args, Opts, GlobalOpts>) {
  return command
    .addOption(choiceOption('--per-page <n>', 'records per page', PER_PAGE_VALUES.map(String), perPageOf))
    .option('--page <n>', 'page to fetch (1-based)', integerParser('--page', 1))
    .option('--all', 'follow the pages to the end')
    .option('--limit <n>', 'stop after N records (fetches only the pages needed)', integerParser('--limit', 1));
}

function perPageOf(value: string): (typeof PER_PAGE_VALUES)[number] {
  return PER_PAGE_VALUES.find((n) => String(n) === value) ?? PER_PAGE_VALUES[0];
}

export function addSortOption<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(command: Command<Args, Opts, GlobalOpts>) {
  return command.addOption(new Option('--sort <direction>', 'sort direction').choices(SORT_DIRECTIONS));
}

export function addGateOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(command: Command<Args, Opts, GlobalOpts>) {
  return command
    .addOption(new Option('--fail-on <result>', 'exit 10 if any report has this result or a worse one').choices(RESULTS))
    .option('--min-score <n>', 'exit 10 if any report scores below N', (value: string) => {
      const n = toNumber(value);
      // Scores are 0 to 100: 101 would fail every report, -5 none.
      if (n === undefined || n < 0 || n > 100) throw new InvalidArgumentError('--min-score must be a score from 0 to 100.');
      return n;
    })
    .option('--fail-on-check <ids>', 'exit 10 if any report fails one of these checks (ids, comma-separated, e.g. title,meta_description)', parseCheckIds)
    .addOption(
      new Option('--fail-on-importance <level>', 'exit 10 if any report fails a check of this importance (medium: or higher)').choices(GATE_IMPORTANCES),
    );
}

export type GateOptions = DeclaredOptions<typeof addGateOptions<[], {}, {}>>;
export type PagingFlags = DeclaredOptions<typeof addPagingOptions<[], {}, {}>>;

/** How to walk the pages: from --page, through all of them with --all, or until --limit records. */
export function pagingOptions(flags: PagingFlags) {
  // A --page the user gave is sent as given, --page 1 included.
  return { startPage: flags.page, all: flags.all === true, limit: flags.limit };
}
