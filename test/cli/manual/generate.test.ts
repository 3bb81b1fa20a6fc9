// The command reference (docs/commands/) and the man pages (man/) are what `npm run docs` writes from the command tree
// now: regenerated into a scratch directory and compared with the repository's, file by file; and they say what --help says.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MANUAL_DIRS, REGENERATE, manPagesOf, manualFiles, withManPages, writeManual } from '../../../src/cli/manual/generate.js';
import { parseAfterText } from '../../../src/cli/manual/model.js';
import { withDocTables } from '../../../src/cli/manual/doc-tables.js';
import { EXIT_CODES, environmentNames } from '../../../src/cli/commands/help-topics.js';
import { SETTING_KEYS } from '../../../src/config/keys.js';
import { mentionsPath } from '../../helpers/paths.js';
import { runInProcess } from '../../helpers/run.js';
import { scratchMaker } from '../../helpers/scratch.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const scratch = scratchMaker('rsapi-manual-');

/** The generated files in `dir` of a tree, by name. */
function generatedIn(root: string, dir: string, generated: RegExp): Map<string, string> {
  const at = join(root, dir);
  if (!existsSync(at)) return new Map();
  return new Map(
    readdirSync(at)
      .filter((name) => generated.test(name))
      .sort()
      .map((name) => [name, readFileSync(join(at, name), 'utf8')]),
  );
}

describe('the generated manual', () => {
  it(`is current: docs/commands/ and man/ hold what \`${REGENERATE}\` writes now, and no page of a command that is gone`, async () => {
    const fresh = scratch();
    await writeManual(fresh);
    for (const { dir, generated } of MANUAL_DIRS) {
      const expected = generatedIn(fresh, dir, generated);
      const actual = generatedIn(ROOT, dir, generated);
      const missing = [...expected.keys()].filter((name) => !actual.has(name));
      const extra = [...actual.keys()].filter((name) => !expected.has(name));
      const stale = [...expected.keys()].filter((name) => actual.has(name) && actual.get(name) !== expected.get(name));
      const problems = [
        ...missing.map((name) => `${dir}/${name} is missing`),
        ...extra.map((name) => `${dir}/${name} is of no command`),
        ...stale.map((name) => `${dir}/${name} is stale`),
      ];
      expect(problems, `the generated manual is not current: run \`${REGENERATE}\` and commit what it writes`).toEqual([]);
    }
  });

  it(`is installed with the package: package.json's "man" lists every man page and "files" holds man/ (\`${REGENERATE}\` sets both)`, async () => {
    const text = readFileSync(join(ROOT, 'package.json'), 'utf8');
    const manifest = JSON.parse(text) as { man?: string[]; files?: string[] };
    const pages = manPagesOf(await manualFiles());
    expect(manifest.man, `run \`${REGENERATE}\``).toEqual(pages);
    expect(manifest.files).toContain('man');
    expect(pages).toEqual(expect.arrayContaining(['./man/rsapi.1', './man/rsapi-reports-list.1', './man/rsapi-reports-create.1']));
    expect(withManPages(text, pages)).toBe(text);
  });

  it("a command's page says what its --help says: usage, description, every option, the notes and every example", async () => {
    // A terminal wide enough that no example is continued: the pages hold each example whole, --help fits it to its width.
    const help = await runInProcess({ argv: ['reports', 'create', '--help'], tty: true, columns: 1000 });
    const files = await manualFiles();
    const markdown = files.get('docs/commands/rsapi-reports-create.md')!;
    const man = files.get('man/rsapi-reports-create.1')!;
    const usage = /^Usage: (.*)$/m.exec(help.stdout)![1]!;
    expect(markdown).toContain(usage);
    const options = [...help.stdout.matchAll(/^ {2}(-[^ ].*?)(?: {2,}|$)/gm)].map((match) => match[1]!);
    expect(options).toEqual(expect.arrayContaining(['--from-file <path>', '--concurrency <n>', '-o, --output <format>']));
    for (const option of options) expect(markdown).toContain(`\`${option}\``);
    for (const option of options) expect(man).toContain(option.replace(/-/g, '\\-'));
    const examples = help.stdout.split('\n').filter((line) => line.startsWith('  $ '));
    expect(examples.length).toBeGreaterThan(3);
    for (const example of examples) expect(markdown).toContain(example.slice(2));
    expect(markdown).toContain('Run again with the same --journal after failures or Ctrl-C');
    expect(man).toMatch(/^\.TH "RSAPI-REPORTS-CREATE" "1"/m);
    expect(man).toMatch(/^\.SH "EXAMPLES"$/m);
  });

  it('the root page carries the help topics whole (exit codes, environment) and links every command', async () => {
    const files = await manualFiles();
    const root = files.get('docs/commands/rsapi.md')!;
    const exitCodes = (await runInProcess({ argv: ['help', 'exit-codes'] })).stdout;
    expect(root).toContain('## Exit codes');
    expect(root).toContain(exitCodes.split('\n')[1]!.trim());
    expect(root).toContain('## Environment');
    expect(root).toContain('RSAPI_CONFIG_DIR');
    for (const name of ['reports', 'projects', 'auth', 'config', 'api', 'completion', 'mock-server']) expect(root).toContain(`(rsapi-${name}.md)`);
    expect(files.get('docs/commands/README.md')).toContain('[`rsapi reports list`](rsapi-reports-list.md)');
  });

  it("the tables of docs/*.md (exit codes, environment variables, settings) are the program's own, as `npm run docs` writes them", () => {
    const pages = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    const stale = pages.filter((name) => {
      const page = readFileSync(join(ROOT, 'docs', name), 'utf8');
      return withDocTables(page) !== page;
    });
    expect(stale, `run \`${REGENERATE}\` and commit what it writes`).toEqual([]);
    const tables = pages.flatMap((name) =>
      [...readFileSync(join(ROOT, 'docs', name), 'utf8').matchAll(/<!-- generated: ([\w-]+) /g)].map((m) => `${name}:${m[1]}`),
    );
    expect(tables.sort()).toEqual(['configuration.md:settings', 'environment.md:environment', 'exit-codes.md:exit-codes']);
  });

  it('a marked table is written from the program: every exit code, variable and setting is in its page', () => {
    const marked = (name: string) =>
      `<!-- generated: ${name} by \`npm run docs\` from the program's table: do not edit by hand -->\nold\n<!-- end generated -->`;
    const exits = withDocTables(marked('exit-codes'));
    for (const { code } of EXIT_CODES) expect(exits).toContain(`| ${code} |`);
    expect(exits).not.toContain('old');
    const environment = withDocTables(marked('environment'));
    for (const name of environmentNames()) expect(environment).toContain(name);
    const settings = withDocTables(marked('settings'));
    for (const key of SETTING_KEYS) expect(settings).toContain(`| \`${key}\` |`);
    expect(() => withDocTables(marked('nothing'))).toThrow(/no table "nothing"/);
  });

  it('says nothing of the machine that wrote it: neither its home nor its checkout directory', async () => {
    const machine = [homedir(), ROOT];
    for (const [path, content] of await manualFiles()) for (const place of machine) expect(mentionsPath(content, place), `${path} holds ${place}`).toBe(false);
  });

  it('finds a path of the machine only whole: a checkout in /tmp/ci is not in the example /tmp/ci-rsapi', () => {
    const example = 'RSAPI_CONFIG_DIR=/tmp/ci-rsapi rsapi config path';
    expect(mentionsPath(example, '/tmp/ci')).toBe(false);
    expect(mentionsPath(example, '/tmp/ci/')).toBe(false);
    expect(mentionsPath(example, '/tmp')).toBe(true);
    expect(mentionsPath('see /x/tmp/ci and /tmp/cis', '/tmp/ci')).toBe(false);
    expect(mentionsPath('written in /tmp/ci/rsapi/docs', '/tmp/ci')).toBe(true);
    expect(mentionsPath('RSAPI_CONFIG_DIR=/tmp/ci rsapi', '/tmp/ci')).toBe(true);
    expect(mentionsPath('made in "/tmp/ci".', '/tmp/ci')).toBe(true);
    expect(mentionsPath('made in /tmp/ci.', '/tmp/ci')).toBe(true);
    expect(mentionsPath('made in /tmp/ci.d', '/tmp/ci')).toBe(false);
  });

  it('reads the text after the options as --help prints it: prose, titled sections, indented lines', () => {
    const parsed = parseAfterText('\nA note\nover two lines.\n\nExamples:\n  $ rsapi a\n  $ rsapi b   # why\n\n  kept  as\n  it is\n');
    expect(parsed.notes).toEqual([
      { kind: 'prose', text: 'A note\nover two lines.' },
      { kind: 'lines', text: 'kept  as\nit is' },
    ]);
    expect(parsed.sections).toEqual([{ title: 'Examples', blocks: [{ kind: 'lines', text: '$ rsapi a\n$ rsapi b   # why' }] }]);
  });
});
