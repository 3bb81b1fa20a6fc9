// The command lines of a Markdown page, read out of its fenced `sh`, `bash`, `console`, `zsh` and `fish` blocks in page
// order, with what each is expected to do: for the tests that run the docs (test/docs/), so a doc cannot drift.
//
// What a page may say to its runner, in the Markdown:
// - a trailing comment naming an exit code, `rsapi reports list --fail-on bad   # exit 10`: the line exits so (else 0);
// - `<!-- doc-test: skip REASON -->` on the line before a fence: the block is not run (a synopsis, an install, a
//   prompt on a terminal, a real service), the reason said;
// - `<!-- doc-test page: phprank -->` anywhere: the page's mock plays phpRank (`rsapi mock-server --flavor phprank`).
// In a `console` block only the lines after `$ ` are commands (the rest is what they print); in the others every line
// but a comment is, a line ending in `\` going on with the next.

/** The fences whose lines are commands, and the shell that runs each. */
export const COMMAND_FENCES = { sh: 'bash', bash: 'bash', console: 'bash', zsh: 'zsh', fish: 'fish' } as const;
export type Shell = (typeof COMMAND_FENCES)[keyof typeof COMMAND_FENCES];

export interface DocCommand {
  /** The line of the page it starts on (1-based). */
  line: number;
  /** The command as a shell reads it (continued lines joined, `$ ` dropped), its comments kept. */
  text: string;
  shell: Shell;
  /** The exit code the page says it has (a trailing `# ... exit N`), else 0. */
  exit: number;
}

export interface DocBlock {
  /** The line of its opening fence (1-based). */
  line: number;
  fence: keyof typeof COMMAND_FENCES;
  /** Why the page says not to run it (`<!-- doc-test: skip REASON -->`); undefined: it runs. */
  skip?: string;
  commands: DocCommand[];
}

export interface DocPage {
  /** The flavor of the page's mock: phprank when the page says so. */
  flavor: 'seed' | 'phprank';
  blocks: DocBlock[];
}

const FENCE = /^(`{3,}|~{3,})\s*([\w-]*)/;
const ANNOTATION = /^<!--\s*doc-test:\s*(\w+)\s*(.*?)\s*-->\s*$/;

/** Every command block of a page, in page order (other fences skipped whole). */
export function readDocPage(markdown: string): DocPage {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  let previous = '';
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!);
    if (!open) {
      if (lines[index]!.trim() !== '') previous = lines[index]!.trim();
      continue;
    }
    const end = lines.findIndex((line, at) => at > index && line.startsWith(open[1]!));
    const body = lines.slice(index + 1, end === -1 ? lines.length : end);
    const fence = open[2] as keyof typeof COMMAND_FENCES;
    if (Object.hasOwn(COMMAND_FENCES, fence)) {
      const annotation = ANNOTATION.exec(previous);
      if (annotation && annotation[1] !== 'skip') throw new Error(`line ${index}: unknown doc-test annotation "${annotation[1]}"`);
      const skip = annotation ? annotation[2] || 'no reason given' : undefined;
      blocks.push({ line: index + 1, fence, ...(skip === undefined ? {} : { skip }), commands: commandsOf(body, index + 2, fence) });
    }
    previous = '';
    index = end === -1 ? lines.length : end;
  }
  return { flavor: /<!--\s*doc-test page:\s*phprank\s*-->/.test(markdown) ? 'phprank' : 'seed', blocks };
}

/** The commands of a block's lines; `first`: the page's line number of the first. */
function commandsOf(body: string[], first: number, fence: keyof typeof COMMAND_FENCES): DocCommand[] {
  const commands: DocCommand[] = [];
  const prompted = fence === 'console' || body.some((line) => line.startsWith('$ '));
  let pending: { line: number; parts: string[] } | undefined;
  body.forEach((raw, offset) => {
    let text = raw;
    if (pending === undefined) {
      if (prompted) {
        if (!text.startsWith('$ ')) return;
        text = text.slice(2);
      }
      if (text.trim() === '' || text.trim().startsWith('#')) return;
      pending = { line: first + offset, parts: [] };
    }
    const continued = /\\$/.test(text);
    pending.parts.push(continued ? text.slice(0, -1) : text);
    if (continued) return;
    const joined = pending.parts.join('\\\n');
    commands.push({ line: pending.line, text: joined, shell: COMMAND_FENCES[fence], exit: exitOf(joined) });
    pending = undefined;
  });
  return commands;
}

/** The exit code a command's trailing comment names (`# ... exit 4`), else 0. */
export function exitOf(command: string): number {
  const code = /\bexit (\d+)\b/.exec(commentOf(command.split('\n').at(-1)!));
  return code ? Number(code[1]) : 0;
}

/** A shell line's comment: from the first `#` after a space outside quotes (a `#` in '...' or "..." is a word's). */
export function commentOf(line: string): string {
  let quote: string | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"') index++;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '\\') index++;
    else if (char === '#' && (index === 0 || /\s/.test(line[index - 1]!))) return line.slice(index);
  }
  return '';
}
