// `rsapi completion bash|zsh|fish`: each script loads in its shell and completes commands, flags and enum values.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_IDS, checkName } from '../../../src/api/model/checks.js';
import { ExitCode } from '../../../src/cli/runtime/exit-codes.js';
import { tempDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/run.js';

const dir = tempDir('rsapi-completion-');
const scripts: Record<'bash' | 'zsh' | 'fish', string> = { bash: '', zsh: '', fish: '' };
const files: Record<'bash' | 'zsh' | 'fish', string> = { bash: '', zsh: '', fish: '' };

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    const result = await runInProcess({ argv: ['completion', shell] });
    expect(result.code, result.stderr).toBe(0);
    scripts[shell] = result.stdout;
    files[shell] = join(dir.path, `rsapi.${shell}`);
    writeFileSync(files[shell], result.stdout);
  }
});
afterAll(() => dir.cleanup());

function shellInstalled(shell: string): boolean {
  return spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
}

/** Shown as skipped, not passed, on machines without the shell (the script's text is still checked). */
const noZsh = !shellInstalled('zsh');
const noFish = !shellInstalled('fish');

function run(shell: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(shell, args, { encoding: 'utf8', cwd: dir.path, env: { PATH: process.env.PATH, HOME: dir.path }, timeout: 15_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** What bash offers for a command line whose last word is being completed. */
function bashComplete(words: string[]): string[] {
  const script = `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _rsapi; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = run('bash', ['-c', script, 'complete', files.bash, ...words]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\n').filter(Boolean);
}

/** The flags `--help` lists for a command. */
async function helpFlags(args: string[]): Promise<string[]> {
  const help = await runInProcess({ argv: [...args, '--help'] });
  return [...new Set(help.stdout.match(/(?<=^|[\s,])--?[a-zA-Z][\w-]*/gm) ?? [])];
}

describe('bash', () => {
  it('the script parses (bash -n) and registers the completion function', () => {
    expect(run('bash', ['-n', files.bash]).status).toBe(0);
    const result = run('bash', ['-c', `source "$1" && complete -p rsapi`, 'load', files.bash]);
    expect(result.stdout.trim()).toBe('complete -F _rsapi rsapi');
  });

  it('completes commands and aliases, subcommands, and arguments with allowed values', () => {
    expect(bashComplete(['rsapi', 'rep'])).toEqual(['reports', 'report']);
    expect(bashComplete(['rsapi', 'reports', 'cr'])).toEqual(['create']);
    expect(bashComplete(['rsapi', 'report', 'd'])).toEqual(['delete']);
    expect(bashComplete(['rsapi', '--json', 'projects', ''])).toEqual(['list', 'ls', 'delete', 'rm', 'help']);
    expect(bashComplete(['rsapi', 'api', ''])).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(bashComplete(['rsapi', 'completion', 'f'])).toEqual(['fish']);
    expect(bashComplete(['rsapi', 'help', 'pro'])).toEqual(['projects', 'project']);
  });

  it('completes the allowed values of enum flags, global ones too, after other flags', () => {
    expect(bashComplete(['rsapi', 'reports', 'list', '--result', ''])).toEqual(['good', 'decent', 'bad']);
    expect(bashComplete(['rsapi', 'reports', 'list', '--search', 'x', '--sort-by', ''])).toEqual(['id', 'generated_at', 'url', 'score']);
    expect(bashComplete(['rsapi', 'reports', 'create', '--privacy', 'p'])).toEqual(['public', 'private', 'password']);
    expect(bashComplete(['rsapi', 'reports', 'create', '--privacy', '=', ''])).toEqual(['public', 'private', 'password', '0', '1', '2']);
    expect(bashComplete(['rsapi', '-o', 'n'])).toEqual(['ndjson']);
    expect(bashComplete(['rsapi', 'projects', 'list', '--output', 'cs'])).toEqual(['csv']);
    expect(bashComplete(['rsapi', 'reports', 'list', '--per-page', ''])).toEqual(['10', '25', '50', '100']);
  });

  it('completes flags of the command at the cursor, with the global ones', () => {
    expect(bashComplete(['rsapi', 'reports', 'create', '--conc'])).toEqual(['--concurrency']);
    expect(bashComplete(['rsapi', 'reports', 'create', '--jou'])).toEqual(['--journal']);
    expect(bashComplete(['rsapi', 'reports', 'delete', '--y'])).toEqual(['--yes']);
    expect(bashComplete(['rsapi', 'api', 'GET', '/reports', '--fi'])).toEqual(['--field', '--fields']);
    expect(bashComplete(['rsapi', 'projects', 'list', '--ba'])).toEqual(['--base-url']);
    // A flag's value is not taken for a command: `--profile reports` leaves us at the root.
    expect(bashComplete(['rsapi', '--profile', 'reports', 'pro'])).toEqual(['projects', 'project']);
  });

  it('completes the 36 check ids after --fail-on-check, each item of a comma-separated list, with no program run', () => {
    expect(CHECK_IDS).toHaveLength(36);
    expect(bashComplete(['rsapi', 'reports', 'list', '--fail-on-check', ''])).toEqual(CHECK_IDS);
    expect(bashComplete(['rsapi', 'reports', 'show', '42', '--fail-on-check', 'me'])).toEqual(['meta_description', 'meta_viewport']);
    expect(bashComplete(['rsapi', 'reports', 'create', '--fail-on-check', 'title,h'])).toEqual(
      ['headings', 'htst', 'http2', 'http_requests', 'https_encryption'].map((id) => `title,${id}`),
    );
    expect(bashComplete(['rsapi', 'reports', 'list', '--fail-on-check', '=', 'title,load_time,unsafe'])).toEqual(['title,load_time,unsafe_cross_origin_links']);
    // Written into the script: a TAB runs no rsapi (the profile names are the one list asked of the program).
    expect(scripts.bash).toMatch(/'reports list\|--fail-on-check'\) echo '@list 404_page charset [^']*unsafe_cross_origin_links' ;;/);
  });

  it('completes file names for file flags', () => {
    writeFileSync(join(dir.path, 'urls-to-audit.txt'), 'https://example.com/\n');
    expect(bashComplete(['rsapi', 'reports', 'create', '--from-file', 'urls-to'])).toEqual(['urls-to-audit.txt']);
  });

  it('offers every flag that --help shows, so the script cannot fall behind the commands', async () => {
    for (const command of [['reports', 'create'], ['reports', 'list'], ['projects', 'delete'], ['api'], ['mock-server']]) {
      const offered = bashComplete(['rsapi', ...command, '-']);
      const shown = await helpFlags(command);
      expect(shown.length).toBeGreaterThan(5);
      expect(offered, command.join(' ')).toEqual(expect.arrayContaining(shown));
    }
  });
});

describe('zsh', () => {
  it('is a #compdef file that registers _rsapi, with flags and enum values', () => {
    expect(scripts.zsh.startsWith('#compdef rsapi\n')).toBe(true);
    expect(scripts.zsh).toContain('compdef _rsapi rsapi');
    expect(scripts.zsh).toMatch(/'--concurrency:requests in flight at once/);
    expect(scripts.zsh).toMatch(/'reports create\|--privacy'.*\) echo 'public private password 0 1 2'/);
  });

  it.skipIf(noZsh)('loads under compinit and completes in zsh', () => {
    expect(run('zsh', ['-n', files.zsh]).status).toBe(0);
    const loaded = run('zsh', ['-c', 'autoload -U compinit && compinit -u -D && source "$1" && print -r -- ${_comps[rsapi]}', 'zsh', files.zsh]);
    expect(loaded.stderr).toBe('');
    expect(loaded.stdout.trim()).toBe('_rsapi');
    // Outside a completion widget the zsh builtins are stood in for; the walk and the data are the script's own.
    // `prefix`: the word at the cursor, as typed so far.
    // `described`: print what _describe is given (name:description) rather than the matches.
    const complete = (line: string, prefix = '', described = false) => {
      const stubs = [
        'compdef() { :; }',
        described
          ? '_describe() { print -rl -- "${(@P)4}"; }'
          : '_describe() { local -a described; described=("${(@P)4}"); compadd -- "${described[@]%%:*}"; }',
        // The matches of the word at the cursor, with the part compset moved aside put back in front.
        'compadd() { [[ $1 == -- ]] && shift; local w; for w; do [[ $w == ${PREFIX}* ]] && print -r -- "$IPREFIX$w"; done; }',
        'compset() { local head=${(M)PREFIX##${~2}}; IPREFIX+=$head; PREFIX=${PREFIX#$head}; }',
        '_files() { print FILES; }',
      ].join('\n');
      const script = `${stubs}\nsource "$1"; words=(\${=2} "$3"); CURRENT=\${#words}; PREFIX="$3"; IPREFIX=''; _rsapi`;
      const result = run('zsh', ['-c', script, 'zsh', files.zsh, line, prefix]);
      expect(result.stderr).toBe('');
      return result.stdout.split('\n').filter(Boolean);
    };
    expect(complete('rsapi reports')).toEqual(['list', 'ls', 'show', 'get', 'view', 'create', 'update', 'delete', 'rm', 'stats', 'help']);
    expect(complete('rsapi reports list --result')).toEqual(['good', 'decent', 'bad']);
    expect(complete('rsapi reports create --from-file')).toEqual(['FILES']);
    expect(complete('rsapi reports list --fail-on-check')).toEqual(CHECK_IDS);
    expect(complete('rsapi reports show 42 --fail-on-check', 'title,me')).toEqual(['title,meta_description', 'title,meta_viewport']);
    expect(complete('rsapi reports list', '--fail-on-check=lo')).toEqual(['--fail-on-check=load_time']);
    // Each check id with its name beside it (phpRank's `htst` is HSTS).
    expect(complete('rsapi reports list --fail-on-check', '', true)).toEqual(CHECK_IDS.map((id) => `${id}:${checkName(id)}`));
    expect(complete('rsapi reports list --fail-on-check', '', true)).toContain('htst:HSTS');
  });
});

describe('fish', () => {
  it('defines completions for every command, with enum values', () => {
    expect(scripts.fish).toContain("complete -c rsapi -n '__rsapi_is \\'reports\\'' -a 'create'");
    expect(scripts.fish).toMatch(/-l 'privacy' -x -a 'public private password 0 1 2'/);
  });

  it.skipIf(noFish)('loads and completes in fish', () => {
    expect(run('fish', ['--no-execute', files.fish]).status).toBe(0);
    const candidates = (line: string) => {
      const result = run('fish', ['-c', 'source $argv[1]; complete -C $argv[2]', files.fish, line]);
      expect(result.stderr).toBe('');
      return result.stdout.split('\n').filter(Boolean);
    };
    const complete = (line: string) => candidates(line).map((entry) => entry.split('\t')[0]);
    expect(complete('rsapi reports cr')).toEqual(['create']);
    expect(complete('rsapi reports list --result ')).toEqual(['bad', 'decent', 'good']);
    expect(complete('rsapi -o json api ')).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
    expect(complete('rsapi reports create --jou')).toEqual(['--journal']);
    // fish orders candidates its own way.
    expect(complete('rsapi reports list --fail-on-check ').sort()).toEqual([...CHECK_IDS].sort());
    expect(complete('rsapi reports show 42 --fail-on-check title,me')).toEqual(['title,meta_description', 'title,meta_viewport']);
    expect(complete('rsapi reports create --fail-on-check=title,load_time,unsafe')).toEqual(['--fail-on-check=title,load_time,unsafe_cross_origin_links']);
    // Each with its name as the description.
    expect(candidates('rsapi reports list --fail-on-check title,ht')).toEqual(expect.arrayContaining(['title,htst\tHSTS', 'title,http2\tHTTP/2']));
  });
});

describe('rsapi completion', () => {
  it('refuses an unknown shell (exit 2)', async () => {
    const result = await runInProcess({ argv: ['completion', 'powershell'] });
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toBe('rsapi: shell must be one of bash, zsh, fish, not "powershell"\n');
  });
});
