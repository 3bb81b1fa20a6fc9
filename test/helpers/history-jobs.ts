// A history of two jobs over several weeks, recorded in-process from the phpRank mock as a weekly job records it
// (`reports list --all --record --job NAME`), every report re-audited between weeks (the mock's drift flips checks); in
// the shop job a page is published after the second week and one is deleted after the third.
import { join } from 'node:path';
import { startMock, type MockFixture } from './mock.js';
import { runInProcess } from './run.js';

export const JOB_PROJECTS = { shop: 'shop.example.org', blog: 'blog.example.net' } as const;
/** The page published after week 2 and the one deleted after week 3 (both of the shop job). */
export const PUBLISHED = 'shop.example.org/new-arrivals';
export const DELETED = 'shop.example.org/about';

export interface RecordedJobs {
  mock: MockFixture;
  history: string;
  env: Record<string, string>;
  /** An in-process rsapi over the history. */
  rsapi(...argv: string[]): ReturnType<typeof runInProcess>;
  close(): Promise<void>;
}

/** Records `weeks` weeks of both jobs into `dir`/history.db. */
export async function recordTwoJobs(dir: string, weeks = 4): Promise<RecordedJobs> {
  const mock = await startMock({ flavor: 'phprank', seed: 16, rateLimit: 0, drift: 0.3 });
  const history = join(dir, 'history.db');
  const env = { ...mock.env, RSAPI_HISTORY: history };
  const rsapi = (...argv: string[]) => runInProcess({ argv, env });
  const must = async (...argv: string[]) => {
    const result = await rsapi(...argv);
    if (result.code !== 0) throw new Error(`rsapi ${argv.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result;
  };
  for (let week = 1; week <= weeks; week++) {
    for (const [job, project] of Object.entries(JOB_PROJECTS)) await must('reports', 'list', '--all', '--project', project, '--record', '--job', job, '-q');
    const ids = (await must('reports', 'list', '--all', '-q')).stdout.trim().split('\n');
    for (const id of ids) await must('reports', 'update', id, '--refresh', '-q');
    if (week === 2) await must('reports', 'create', `https://${PUBLISHED}`, '-q');
    if (week === 3) {
      const deleted = mock.server.reports().find((report) => report.url === DELETED);
      if (!deleted) throw new Error(`the mock has no report of ${DELETED}`);
      await must('reports', 'delete', String(deleted.id), '--yes', '-q');
    }
  }
  return { mock, history, env, rsapi, close: () => mock.close() };
}
