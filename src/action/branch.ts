// The history kept on a branch of the checkout's origin: fetched into a folder of its own, committed as one commit a
// run, pushed without force. Git runs in the workspace's repository (its origin, and the token actions/checkout left in
// its config), with an index file of the action's own and the folder as the work tree: the checkout is never touched.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getExecOutput } from '@actions/exec';

/** The files of the branch: the SQLite history, its journals, the dashboard. */
export const HISTORY_FILE = 'history.db';
export const DASHBOARD_FILE = 'index.html';
/** What never goes on the branch: a lock a run holds, SQLite's side files of an open database. */
const IGNORED = ['*.lock', '*-wal', '*-shm', '*-journal', ''].join('\n');

/** The committer of the history, as the GitHub Actions bot signs what a workflow writes. */
const BOT = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' };

export class GitError extends Error {
  override name = 'GitError';
}

/** One checkout of the branch in a folder: what it held (its commit, or none when the branch is new). */
export interface BranchCheckout {
  folder: string;
  /** The commit the folder holds; undefined when origin has no such branch yet. */
  parent?: string;
}

export class HistoryBranch {
  /** The ref the branch is fetched into, in the workspace's repository (never a branch of the user's). */
  private readonly fetched: string;

  constructor(
    private readonly workspace: string,
    readonly branch: string,
    private readonly scratch: string,
  ) {
    this.fetched = `refs/rsapi-action/${branch}`;
  }

  /**
   * The branch as origin has it now, in a new folder: its commit's files checked out there, or an empty folder when
   * origin has no such branch.
   */
  async checkout(): Promise<BranchCheckout> {
    const folder = mkdtempSync(join(this.scratch, 'history-'));
    const listed = await this.git(['ls-remote', '--exit-code', '--heads', 'origin', `refs/heads/${this.branch}`], { allowCodes: [2] });
    if (listed.code === 2) {
      writeFileSync(join(folder, '.gitignore'), IGNORED);
      return { folder };
    }
    await this.git(['fetch', '--no-tags', '--depth=1', 'origin', `+refs/heads/${this.branch}:${this.fetched}`]);
    const parent = (await this.git(['rev-parse', '--verify', `${this.fetched}^{commit}`])).stdout.trim();
    await this.git(['read-tree', parent], { folder });
    await this.git(['checkout-index', '--all', '--force'], { folder });
    return { folder, parent };
  }

  /**
   * Commits the folder's files on top of its parent as one commit with `message`, and pushes it as the branch: never
   * forced. Returns false when origin refused it because the branch moved (another run pushed first).
   */
  async commitAndPush(checkout: BranchCheckout, message: string): Promise<boolean> {
    await this.git(['add', '--all', '.'], { folder: checkout.folder });
    const tree = (await this.git(['write-tree'], { folder: checkout.folder })).stdout.trim();
    const parents = checkout.parent ? ['-p', checkout.parent] : [];
    const commit = (await this.git(['commit-tree', tree, ...parents, '-m', message], { folder: checkout.folder, author: true })).stdout.trim();
    const pushed = await this.git(['push', '--porcelain', 'origin', `${commit}:refs/heads/${this.branch}`], { allowCodes: [1] });
    if (pushed.code === 0) return true;
    // A refusal because the branch moved is the race this retries; anything else is an error of its own.
    if (
      /\[rejected\]|\[remote rejected\].*(fetch first|non-fast-forward|failed to update ref|cannot lock ref)|! .*(fetch first|non-fast-forward)/.test(
        pushed.output,
      )
    )
      return false;
    throw new GitError(`git push to ${this.branch} failed: ${pushed.output.trim()}`);
  }

  /**
   * `git ARGS` in the workspace. With `folder`, the folder is the work tree and the index is the folder's own file
   * beside it; with `author`, the commit is the bot's.
   */
  private async git(
    args: string[],
    options: { folder?: string; allowCodes?: number[]; author?: boolean } = {},
  ): Promise<{ code: number; stdout: string; output: string }> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
    const prefix: string[] = [];
    if (options.folder) {
      const index = `${options.folder}.index`;
      env.GIT_INDEX_FILE = index;
      prefix.push(`--work-tree=${options.folder}`);
      mkdirSync(options.folder, { recursive: true });
    }
    if (options.author) {
      env.GIT_AUTHOR_NAME = env.GIT_COMMITTER_NAME = BOT.name;
      env.GIT_AUTHOR_EMAIL = env.GIT_COMMITTER_EMAIL = BOT.email;
    }
    const result = await getExecOutput('git', [...prefix, ...args], {
      cwd: options.folder ?? this.workspace,
      env: { ...env, GIT_DIR: await this.gitDir(), GIT_TERMINAL_PROMPT: '0' },
      ignoreReturnCode: true,
      silent: true,
    });
    const output = `${result.stdout}${result.stderr}`;
    if (result.exitCode !== 0 && !options.allowCodes?.includes(result.exitCode))
      throw new GitError(`git ${args[0]} failed (exit ${result.exitCode}): ${output.trim()}`);
    return { code: result.exitCode, stdout: result.stdout, output };
  }

  private gitDirectory?: string;

  /** The workspace's git directory, absolute (git runs with the history's folder as its working directory). */
  private async gitDir(): Promise<string> {
    if (this.gitDirectory === undefined) {
      const found = await getExecOutput('git', ['rev-parse', '--absolute-git-dir'], { cwd: this.workspace, ignoreReturnCode: true, silent: true });
      if (found.exitCode !== 0) throw new GitError(`${this.workspace} is not a git checkout: run actions/checkout before rsapi (${found.stderr.trim()})`);
      this.gitDirectory = found.stdout.trim();
    }
    return this.gitDirectory;
  }
}
