// What the bash and zsh scripts share: the command tree as `case` functions, and the walk over the words before the cursor.
import { identifier, optionsAt, walk, type CommandSpec, type ListItem } from './model.js';

type CaseArm = [patterns: string[], body: string];

/** The prefix of every function a bash or zsh script defines: `_rsapi`. */
export function functionPrefix(bin: string): string {
  return `_${identifier(bin)}`;
}

/** What `_values` prints first for a comma-separated list: the items follow, each completed after the last comma. */
export const LIST_MARK = '@list';

/** POSIX single quotes. */
function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function echoWords(words: string[]): string {
  return `echo ${sq(words.join(' '))}`;
}

/** Prints the names to complete: space-separated for bash, one `name:description` a line for zsh's `_describe`. */
function printNames(items: { names: string[]; description: string }[], withDescriptions: boolean): string {
  if (!withDescriptions) return echoWords(items.flatMap((item) => item.names));
  return `printf '%s\\n' ${items.flatMap((item) => item.names.map((name) => sq(`${name}:${item.description}`))).join(' ')}`;
}

/** A list's items after LIST_MARK: on its line for bash, one `name:description` a line for zsh's `_describe`. */
function listValues(items: readonly ListItem[], withDescriptions: boolean): string {
  if (!withDescriptions) return echoWords([LIST_MARK, ...items.map((item) => item.name)]);
  return `printf '%s\\n' ${[LIST_MARK, ...items.map((item) => `${item.name}:${item.description}`)].map(sq).join(' ')}`;
}

/** Case patterns for "this command path and everything below it". */
function scopePatterns(spec: CommandSpec, key: string): string[] {
  if (spec.path === '') return [`*${sq(`|${key}`)}`];
  const patterns = [sq(`${spec.path}|${key}`)];
  if (spec.children.length > 0) patterns.push(`${sq(`${spec.path} `)}*${sq(`|${key}`)}`);
  return patterns;
}

function caseFunction(name: string, subject: string, arms: CaseArm[], fallback = ''): string {
  const lines = arms.filter(([patterns]) => patterns.length > 0).map(([patterns, body]) => `    ${patterns.join('|')}) ${body} ;;`);
  return [`${name}() {`, `  case "${subject}" in`, ...lines, `  esac`, ...(fallback ? [`  ${fallback}`] : []), `}`].join('\n');
}

/** The data functions: `<prefix>_child`, `_commands`, `_options`, `_valued`, `_values`, `_argvalues`. */
export function shellData(prefix: string, tree: CommandSpec, withDescriptions: boolean, bin: string): string {
  // Stored profile names and the like: asked of the program when completing (no request is made; errors are silent).
  const listed = (args: string) => `command ${bin} ${args} 2>/dev/null`;
  const child: CaseArm[] = [];
  const commands: CaseArm[] = [];
  const options: CaseArm[] = [];
  const valued: CaseArm[] = [];
  const values: CaseArm[] = [];
  const argValues: CaseArm[] = [];
  walk(tree, (spec, ancestors) => {
    for (const sub of spec.children) child.push([sub.names.map((name) => sq(`${spec.path}|${name}`)), `echo ${sq(sub.path)}`]);
    if (spec.children.length > 0) commands.push([[sq(spec.path)], printNames(spec.children, withDescriptions)]);
    options.push([[sq(spec.path)], printNames(optionsAt(spec, ancestors), withDescriptions)]);
    for (const option of spec.options.filter((o) => o.takesValue)) {
      const patterns = option.names.flatMap((name) => scopePatterns(spec, name));
      valued.push([patterns, 'return 0']);
      if (option.choices.length > 0) values.push([patterns, echoWords(option.choices)]);
      else if (option.listOf) values.push([patterns, listValues(option.listOf, withDescriptions)]);
      else if (option.valuesFrom) values.push([patterns, listed(option.valuesFrom)]);
      else if (option.files) values.push([patterns, 'echo @files']);
    }
    spec.argChoices.forEach((choices, index) => {
      if (choices.length > 0) argValues.push([[sq(`${spec.path}|${index}`)], echoWords(choices)]);
    });
    spec.argValuesFrom.forEach((args, index) => {
      if (args !== undefined) argValues.push([[sq(`${spec.path}|${index}`)], listed(args)]);
    });
  });
  return [
    '# The command tree, as data: generated from the commands themselves.',
    caseFunction(`${prefix}_child`, '$1|$2', child),
    caseFunction(`${prefix}_commands`, '$1', commands),
    caseFunction(`${prefix}_options`, '$1', options),
    caseFunction(`${prefix}_valued`, '$1|$2', valued, 'return 1'),
    caseFunction(`${prefix}_values`, '$1|$2', values),
    caseFunction(`${prefix}_argvalues`, '$1|$2', argValues),
  ].join('\n');
}

/** Walks the words before the cursor: the command path, the count of positional arguments, an option awaiting its value. */
export function shellWalker(prefix: string, firstIndex: number, wordsVar: string, cwordVar: string): string {
  return `${prefix}_walk() {
  cmdpath='' nargs=0 valueopt=''
  local i=${firstIndex} word child
  while [ "$i" -lt "${cwordVar}" ]; do
    word="\${${wordsVar}[i]}"
    case "$word" in
      --*=*) ;;
      -*)
        if ${prefix}_valued "$cmdpath" "$word"; then
          [ "\${${wordsVar}[i+1]}" = '=' ] && i=$((i + 1))
          if [ $((i + 1)) -ge "${cwordVar}" ]; then valueopt="$word"; return; fi
          i=$((i + 1))
        fi ;;
      *)
        child="$(${prefix}_child "$cmdpath" "$word")"
        if [ -n "$child" ]; then cmdpath="$child" nargs=0; else nargs=$((nargs + 1)); fi ;;
    esac
    i=$((i + 1))
  done
}`;
}
