// The history answers as it did before its compact encoding (issue 45): a generated history of six runs (checks
// flipping, values changing, scores and labels moving, pages new and vanished, a page without checks, check ids that
// need encoding, checks added, dropped and reordered, a re-read of the same reading, two readings dated one second)
// is imported from an export written by the rsapi before it, then `history runs`, `show`, `diff`, `trend` and
// `export` are held byte for byte to the answers that rsapi gave (answers/, written by UPDATE_ANSWERS=1 on the main
// before the change). The same readings recorded through the store's own write path export as they did.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyLocation } from '../../../src/history/location.js';
import { openHistory } from '../../../src/history/open.js';
import { snapshotOf } from '../../../src/history/snapshot.js';
import type { Snapshot } from '../../../src/history/types.js';
import { emptyDatabase, postgresPerFile } from '../../helpers/postgres.js';
// xorshift32 from a seed: the same history on every machine.
import { xorshift32 as random } from '../../../scripts/bench/seeded.mjs';
import { runInProcess } from '../../helpers/run.js';
import { scratchMaker } from '../../helpers/scratch.js';

const ANSWERS = join(import.meta.dirname, 'answers');
const UPDATE = process.env.UPDATE_ANSWERS === '1';
const scratch = scratchMaker('rsapi-same-answers-');
const pg = postgresPerFile();

const ORIGIN = 'https://rank.example.com';
const CHECKS = ['title', 'meta_description', 'https_encryption', 'http2', 'dom_size', 'charset', 'odd id/ä', 'social', 'robots', 'sitemap'];
const PAGES = 24;
const RUNS = 6;

/** The report records each run read: ids, URLs and projects stable, the checks drifting week by week. */
function generatedRuns(): { started: string; records: Record<string, unknown>[] }[] {
  const next = random(45);
  const state = Array.from({ length: PAGES }, (_, page) => CHECKS.map((_, c) => (page + c) % 4 !== 0));
  const values = Array.from({ length: PAGES }, () => CHECKS.map(() => 0));
  const runs: { started: string; records: Record<string, unknown>[] }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const week = new Date(Date.UTC(2026, 0, 1 + run * 7, 9)).toISOString().replace('.000Z', '.000000Z');
    const records: Record<string, unknown>[] = [];
    for (let page = 0; page < PAGES; page++) {
      if (page === 20 && run >= 3) continue; // vanishes
      if (page === 21 && run < 2) continue; // comes later
      // Run 2 re-reads run 1's readings unchanged (the same generated_at): a re-read adds only references.
      const changes = run !== 2;
      if (changes) {
        for (let c = 0; c < CHECKS.length; c++) {
          if (next() < 0.15) state[page]![c] = !state[page]![c];
          if (next() < 0.1) values[page]![c]! += 1;
        }
      }
      const ids =
        page === 5 && run >= 4
          ? [...CHECKS].reverse()
          : page === 6 && run === 3
            ? CHECKS.slice(0, 7)
            : page === 7 && run >= 2
              ? [...CHECKS, 'new_check']
              : CHECKS;
      const results = Object.fromEntries(
        ids.map((id) => {
          const c = Math.max(0, CHECKS.indexOf(id));
          return [id, { passed: state[page]![c], importance: 'high', value: `${id}:${state[page]![c]}:${values[page]![c]}` }];
        }),
      );
      const passed = Object.values(results).filter((r) => r.passed).length;
      const generated = run === 2 ? 1 : run;
      const record: Record<string, unknown> = {
        id: page + 1,
        url: page === 9 ? `https://www.site-${page % 3}.example.com/Page-${page}/` : `site-${page % 3}.example.com/page-${page}`,
        project: page === 10 ? '' : `site-${page % 3}.example.com`,
        result: page === 11 && run === 4 ? null : Math.round((100 * passed) / ids.length),
        generated_at: new Date(Date.UTC(2026, 0, 1 + generated * 7, 9, page)).toISOString().replace('.000Z', '.000000Z'),
      };
      if (page !== 12) record.results = results;
      records.push(record);
      // The duplicate report of one URL, and a second reading of page 3 dated the same second as its first.
      if (page === 13) records.push({ ...record, id: 100 + page, result: Number(record.result ?? 0) - 5 });
    }
    if (run === 4) {
      const second = records.find((record) => record.id === 4) as Record<string, unknown>;
      records.push({ ...second, result: 1 });
    }
    runs.push({ started: week, records });
  }
  return runs;
}

/** The runs as `history export` lines, written as the rsapi before the change exported them. */
function exportedLines(): string {
  return generatedRuns()
    .map(({ started, records }, index) => {
      const snapshots = records.map((record) => plainSnapshot(snapshotOf(record, ORIGIN) as Snapshot));
      const run = {
        id: index + 1,
        started,
        recorded: started,
        finished: started.replace('09:00:00', '09:30:00'),
        command: 'rsapi audit',
        selection: '{"job":"weekly"}',
        origin: ORIGIN,
        exitCode: 0,
        complete: true,
        reports: snapshots.length,
      };
      return JSON.stringify({ run, snapshots });
    })
    .join('\n');
}

function plainSnapshot(snapshot: Snapshot): Snapshot {
  return {
    origin: snapshot.origin,
    identity: snapshot.identity,
    reportId: snapshot.reportId,
    project: snapshot.project,
    score: snapshot.score,
    label: snapshot.label,
    generatedAt: snapshot.generatedAt,
    checksText: snapshot.checksText,
    checks: snapshot.checks,
  };
}

/** The commands whose answers are held, each with its answer file's name. */
const COMMANDS: readonly [string, string[]][] = [
  ['runs.json', ['runs', '--json']],
  ...Array.from({ length: RUNS }, (_, run): [string, string[]] => [`show-${run + 1}.json`, ['show', String(run + 1), '--json']]),
  ['show-5.tsv', ['show', '5', '-o', 'tsv']],
  ...Array.from({ length: RUNS - 1 }, (_, run): [string, string[]] => [
    `diff-${run + 1}-${run + 2}.json`,
    ['diff', String(run + 1), String(run + 2), '--json'],
  ]),
  ['diff-1-6.json', ['diff', '1', '6', '--json']],
  ['diff-last.csv', ['diff', '-o', 'csv']],
  ['diff-project.json', ['diff', '--project', 'site-1.example.com', '--json']],
  ['trend-url.json', ['trend', 'site-0.example.com/page-3', '--check', 'title', '--service', 'all', '--json']],
  ['trend-odd.json', ['trend', 'site-0.example.com/page-6', '--check', 'odd id/ä', '--service', 'all', '--json']],
  ['trend-project.json', ['trend', '--project', 'site-2.example.com', '--service', 'all', '--json']],
  ['trend-job.json', ['trend', '--job', 'weekly', '--service', 'all', '--json']],
  ['export.ndjson', ['export']],
];

const rsapi = (history: string, ...argv: string[]) => runInProcess({ argv: ['history', ...argv, '--history', history], env: {} });

/** Imports the generated export into `history`, then holds every command's answer to the one kept. */
async function holdAnswers(history: string): Promise<void> {
  const file = join(scratch(), 'before.ndjson');
  writeFileSync(file, `${exportedLines()}\n`);
  const imported = await rsapi(history, 'import', file);
  expect(imported.code, imported.stderr).toBe(0);
  for (const [name, argv] of COMMANDS) {
    const { code, stdout, stderr } = await rsapi(history, ...argv);
    const answer = `exit ${code}\n${stdout}`;
    if (UPDATE) writeFileSync(join(ANSWERS, `${name}.txt`), answer);
    expect(answer, `${name}: ${stderr}`).toBe(readFileSync(join(ANSWERS, `${name}.txt`), 'utf8'));
  }
}

/** The generated runs recorded through the store's own write path (startRun, addSnapshots a page at a time). */
async function recordThroughStore(where: string): Promise<void> {
  const store = await openHistory(historyLocation(where));
  try {
    for (const { started, records } of generatedRuns()) {
      const id = await store.startRun({ started, command: 'rsapi audit', selection: '{"job":"weekly"}', origin: ORIGIN, shard: undefined, ci: undefined });
      for (let start = 0; start < records.length; start += 7) {
        await store.addSnapshots(
          id,
          records.slice(start, start + 7).map((record) => snapshotOf(record, ORIGIN) as Snapshot),
        );
      }
      await store.finishRun(id, { finished: started.replace('09:00:00', '09:30:00'), exitCode: 0, complete: true });
    }
  } finally {
    await store.close();
  }
}

/** An export with the run's times left out (the store's clock, and a start written as given or as an import writes it). */
function withoutRecorded(ndjson: string): string {
  return ndjson.replace(/"(started|recorded|finished)":"[^"]*",|"clockSkewMs":-?\d+,/g, '');
}

/**
 * Records the generated runs through the write path into `history` and holds its export (the runs' times left out) to
 * the one kept. It is not the imported history's: a re-read dated as an earlier reading with other checks, or a
 * reading given twice in one run, is a snapshot of its own when recorded, where an import keeps the stored one.
 */
async function holdRecorded(history: string): Promise<void> {
  await recordThroughStore(history);
  const exported = await rsapi(history, 'export');
  expect(exported.code, exported.stderr).toBe(0);
  const answer = withoutRecorded(exported.stdout);
  if (UPDATE) writeFileSync(join(ANSWERS, 'export-recorded.ndjson.txt'), answer);
  expect(answer).toBe(readFileSync(join(ANSWERS, 'export-recorded.ndjson.txt'), 'utf8'));
}

describe('the history answers as before its compact encoding', () => {
  it('on SQLite: runs, show, diff, trend and export of an imported history, byte for byte', async () => {
    await holdAnswers(join(scratch(), 'history.db'));
  });

  it('on SQLite: the same readings recorded through the write path export as they did', async () => {
    await holdRecorded(join(scratch(), 'recorded.db'));
  });

  it.skipIf(pg.missing !== undefined)(
    'on PostgreSQL: the same answers, and the write path exports the same',
    async () => {
      const url = pg.url();
      await emptyDatabase(url);
      await holdAnswers(url);
      await emptyDatabase(url);
      await holdRecorded(url);
    },
    60_000,
  );
});
