// `reports stats --checks`: per check, how many matching reports fail it and what share, most important then most failed first.
import { plural } from '../../plural.js';
import { checkName, importanceRank, reportChecks, type Importance } from '../../api/model/checks.js';
import { wrapLines } from '../check-lines.js';
import { loadPalette } from '../table/colors.js';
import type { OutputDocument } from '../formats.js';
import { ProjectGroups } from './project-groups.js';
import type { StatsOutput } from './stats.js';
import { terminalText } from '../terminal-text.js';
import type { ServiceRecord } from '../types.js';
import { displayWidth, fitToWidth } from '../table/width.js';

export interface CheckCount {
  check: string;
  name: string;
  /** The importance the service gave the check (the first it gave); null when it gave none. */
  importance: Importance | null;
  /** Reports that carried this check. */
  reports: number;
  failed: number;
  /** failed / reports, 0 to 1 (0 for no reports). */
  share: number;
}

export interface CheckStats {
  /** The project, with --by project; undefined for the whole set. */
  project?: string;
  /** Every matching report. */
  reports: number;
  /** Reports that carried per-check results (the others count in `reports` only). */
  withChecks: number;
  /** Most important first, then most failed, then by id. */
  checks: CheckCount[];
}

interface Tally {
  reports: number;
  withChecks: number;
  counts: Map<string, { importance: Importance | undefined; reports: number; failed: number }>;
}

const newTally = (): Tally => ({ reports: 0, withChecks: 0, counts: new Map() });

/** Collects reports as they arrive; memory grows with the checks and projects, not the reports. */
export class CheckStatsCollector {
  private readonly groups: ProjectGroups<Tally>;

  constructor(byProject: boolean) {
    this.groups = new ProjectGroups(byProject, newTally);
  }

  add(record: ServiceRecord): void {
    const outcomes = reportChecks(record);
    for (const tally of this.groups.talliesOf(record)) {
      tally.reports++;
      if (outcomes === undefined) continue;
      tally.withChecks++;
      for (const outcome of outcomes) {
        const count = tally.counts.get(outcome.id) ?? { importance: outcome.importance, reports: 0, failed: 0 };
        count.importance ??= outcome.importance;
        count.reports++;
        if (!outcome.passed) count.failed++;
        tally.counts.set(outcome.id, count);
      }
    }
  }

  /** Whether some report carried per-check results: without any, there is nothing to count (the seed dialect). */
  get sawChecks(): boolean {
    return this.groups.all.withChecks > 0;
  }

  total(): CheckStats {
    return summarise(this.groups.all);
  }

  /** One entry a project, by name ('' for reports without a project, last). */
  perProject(): CheckStats[] {
    return this.groups.perProject().map(([project, tally]) => ({ project, ...summarise(tally) }));
  }
}

function summarise(tally: Tally): CheckStats {
  const checks = [...tally.counts.entries()].map(
    ([check, count]): CheckCount => ({
      check,
      name: checkName(check),
      importance: count.importance ?? null,
      reports: count.reports,
      failed: count.failed,
      share: count.reports === 0 ? 0 : count.failed / count.reports,
    }),
  );
  checks.sort(
    (a, b) => importanceRank(a.importance) - importanceRank(b.importance) || b.failed - a.failed || (a.check < b.check ? -1 : a.check > b.check ? 1 : 0),
  );
  return { reports: tally.reports, withChecks: tally.withChecks, checks };
}

/** A share as a number for machines: four decimals are enough and keep 1/3 readable. */
const shareNumber = (share: number) => Math.round(share * 10_000) / 10_000;

/** The check counts of the whole set, or with `groups` of each project, as a document for the format registry. */
export function checkStatsDocument(total: CheckStats, groups: CheckStats[] | undefined, options: StatsOutput): OutputDocument {
  const byProject = groups !== undefined;
  const entries = groups ?? [total];
  const lines = entries.flatMap((entry) => flatRows(entry, byProject));
  return {
    value: byProject ? entries.map(structured) : structured(total),
    lines,
    rows: { columns: [...(byProject ? ['project'] : []), ...CHECK_COLUMNS], rows: lines.map((row) => Object.values(row)) },
    text: () => tableText(entries, byProject, options),
    drawn: true,
  };
}

const CHECK_COLUMNS = ['check', 'name', 'importance', 'reports', 'failed', 'share'];

function structured(stats: CheckStats): Record<string, unknown> {
  return {
    ...(stats.project !== undefined ? { project: stats.project } : {}),
    reports: stats.reports,
    with_checks: stats.withChecks,
    checks: stats.checks.map((count) => ({ ...count, share: shareNumber(count.share) })),
  };
}

function flatRows(stats: CheckStats, byProject: boolean): Record<string, string | number>[] {
  return stats.checks.map((count) => ({
    ...(byProject ? { project: stats.project ?? '' } : {}),
    check: count.check,
    name: count.name,
    importance: count.importance ?? '',
    reports: count.reports,
    failed: count.failed,
    share: shareNumber(count.share),
  }));
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const INDENT = '  ';
const GAP = '  ';
/** Below this many columns a bar says too little: it is left out. */
const MIN_BAR = 4;
const MAX_BAR = 40;

/**
 * For people: the checks that failed somewhere, under a heading per importance, each with its count, share and a
 * bar whose full length is every report; the checks that never failed are counted in one line. Per project with --by.
 */
async function tableText(entries: CheckStats[], byProject: boolean, options: StatsOutput): Promise<string> {
  const palette = await loadPalette(options.color);
  const failing = entries.flatMap((stats) => stats.checks.filter((count) => count.failed > 0));
  const nameWidth = Math.max(0, ...failing.map((count) => displayWidth(terminalText(count.name))));
  const countWidth = Math.max(1, ...failing.map((count) => String(count.failed).length));
  const fixed = INDENT.length + GAP.length + countWidth + GAP.length + 4;
  const width = options.width;
  const barRoom = width === undefined ? 20 : Math.min(MAX_BAR, width - fixed - nameWidth - GAP.length);
  const shownNameWidth = width === undefined || barRoom >= MIN_BAR ? nameWidth : Math.max(8, Math.min(nameWidth, width - fixed));
  const lines: string[] = [];
  for (const stats of entries) {
    if (lines.length > 0) lines.push('');
    const project = byProject ? terminalText(stats.project === '' ? '(none)' : (stats.project ?? '')) : '';
    const without = stats.reports - stats.withChecks;
    const anyFailed = stats.checks.some((count) => count.failed > 0);
    const reports = `${plural(stats.withChecks, 'report')} with per-check results${without > 0 ? ` (${without} without)` : ''}`;
    // Wrapped as plain text (colour codes have no width), the project then drawn bold.
    const heading = wrapLines(`${project ? `${project}: ` : ''}${reports}${anyFailed ? '; how many fail each check:' : ''}`, width, '', '');
    if (project && heading[0]?.startsWith(project)) heading[0] = palette.head(project) + heading[0].slice(project.length);
    lines.push(...heading);
    let importance: Importance | null | 'start' = 'start';
    for (const count of stats.checks.filter((c) => c.failed > 0)) {
      if (count.importance !== importance) {
        importance = count.importance;
        lines.push(palette.head(importance === null ? 'importance not given' : `${importance} importance`));
      }
      const name = fitToWidth(terminalText(count.name), shownNameWidth);
      const share = `${Math.round(count.share * 100)}%`.padStart(4);
      const bar = barRoom >= MIN_BAR ? GAP + barOf(count.share, barRoom) : '';
      lines.push(
        `${INDENT}${name.text}${' '.repeat(shownNameWidth - name.width)}${GAP}${String(count.failed).padStart(countWidth)}${GAP}${share}${bar}`.trimEnd(),
      );
    }
    const clean = stats.checks.filter((count) => count.failed === 0).length;
    if (stats.withChecks > 0 && clean > 0)
      lines.push(clean === stats.checks.length ? `all ${clean} checks passed on every report` : `${plural(clean, 'other check')} passed on every report`);
  }
  return `${lines.join('\n')}\n`;
}

/** A bar whose full `room` is a share of 1; a share above nothing shows at least a sliver. */
function barOf(share: number, room: number): string {
  const eighths = Math.round(share * room * 8);
  const bar = '█'.repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] ?? '');
  return share > 0 && bar === '' ? '▏' : bar;
}
