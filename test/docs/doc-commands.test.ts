// Reading a page's command lines (test/helpers/doc-commands.ts): which lines are commands, their exit codes, skips.
import { describe, expect, it } from 'vitest';
import { commentOf, exitOf, readDocPage } from '../helpers/doc-commands.js';

const PAGE = `# A page

<!-- doc-test page: phprank -->

\`\`\`console
$ rsapi reports list --all   # one page
id  url
$ rsapi reports create https://example.com/ \\
    --fail-on bad   # exit 10 when it is bad
\`\`\`

<!-- doc-test: skip prompts on a terminal -->
\`\`\`sh
rsapi auth login
\`\`\`

\`\`\`text
rsapi reports list [--all]
\`\`\`

\`\`\`fish
# a comment line is no command
mkdir -p ~/.config/fish/completions && rsapi completion fish > ~/.config/fish/completions/rsapi.fish
\`\`\`
`;

describe('readDocPage', () => {
  const page = readDocPage(PAGE);

  it('reads the commands of sh, console and fish blocks in page order, output and comment lines left out', () => {
    expect(page.flavor).toBe('phprank');
    expect(page.blocks.map((block) => [block.line, block.fence, block.skip])).toEqual([
      [5, 'console', undefined],
      [13, 'sh', 'prompts on a terminal'],
      [21, 'fish', undefined],
    ]);
    expect(page.blocks[0]!.commands).toEqual([
      { line: 6, text: 'rsapi reports list --all   # one page', shell: 'bash', exit: 0 },
      { line: 8, text: 'rsapi reports create https://example.com/ \\\n    --fail-on bad   # exit 10 when it is bad', shell: 'bash', exit: 10 },
    ]);
    expect(page.blocks[2]!.commands.map((command) => [command.line, command.shell])).toEqual([[23, 'fish']]);
  });

  it('a page without the annotation plays the seed flavor; an unknown annotation is an error, not a silent run', () => {
    expect(readDocPage('```sh\nrsapi --version\n```\n').flavor).toBe('seed');
    expect(() => readDocPage('<!-- doc-test: skipp typo -->\n```sh\nrsapi x\n```\n')).toThrow(/unknown doc-test annotation "skipp"/);
  });
});

describe('exit codes from comments', () => {
  it('reads `exit N` in the comment only: not in a quoted word, not without a comment', () => {
    expect(exitOf('rsapi reports delete 42 99999 --dry-run --json # [{"id":42,"action":"delete"}], exit 4')).toBe(4);
    expect(exitOf(`rsapi api GET /reports --jq '.x # exit 3'`)).toBe(0);
    expect(exitOf('rsapi reports list --search exit 5')).toBe(0);
    expect(commentOf('echo "a # b" # c')).toBe('# c');
    expect(commentOf('echo a#b')).toBe('');
  });
});
