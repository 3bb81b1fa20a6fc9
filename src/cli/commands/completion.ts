// `rsapi completion bash|zsh|fish`: a completion script generated from the live command tree, so it never goes stale.
import { Argument, type Command, type Option } from 'commander';
import { handle } from '../handler.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

export function registerCompletion(program: Command): void {
  const command = program
    .command('completion')
    .description('Print a shell completion script (commands, flags, allowed values)')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS));
  command.addHelpText(
    'after',
    `
Examples:
  $ source <(rsapi completion bash)                      # in ~/.bashrc
  $ rsapi completion bash > ~/.local/share/bash-completion/completions/rsapi
  $ rsapi completion zsh > "\${fpath[1]}/_rsapi"           # or: source <(rsapi completion zsh) after compinit
  $ rsapi completion fish > ~/.config/fish/completions/rsapi.fish`,
  );
  handle(command, async (ctx, self) => {
    let root = self;
    while (root.parent) root = root.parent;
    const tree = describeCommand(root, '');
    const [shell] = self.processedArgs as [Shell];
    ctx.io.stdout.write(GENERATORS[shell](tree, root.name()));
  });
}

// ---- the model: what the command tree offers at each command path ----

interface OptionSpec {
  /** `-o`, `--output`. */
  names: string[];
  description: string;
  takesValue: boolean;
  /** Allowed values (commander `choices`). */
  choices: string[];
  /** The value is a file (`<path>`, `<file>`): complete file names. */
  files: boolean;
}

interface CommandSpec {
  /** Canonical names from the root, space-separated; '' for the root. */
  path: string;
  names: string[];
  description: string;
  children: CommandSpec[];
  /** Its own options (help included); valid on this command and below it. */
  options: OptionSpec[];
  /** Allowed values of each positional argument, by position. */
  argChoices: string[][];
}

function describeCommand(command: Command, path: string): CommandSpec {
  const help = command.createHelp();
  const own = help.visibleOptions(command);
  const subcommands = help.visibleCommands(command);
  const spec: CommandSpec = {
    path,
    names: [command.name(), ...command.aliases()],
    description: command.description(),
    options: own.map(describeOption),
    argChoices: command.registeredArguments.map((argument) => argument.argChoices ?? []),
    children: [],
  };
  const childPath = (name: string) => (path ? `${path} ${name}` : name);
  spec.children = subcommands.map((sub) => describeCommand(sub, childPath(sub.name())));
  // The implicit `help [command]` completes its siblings' names.
  const helpChild = spec.children.find((child) => child.names[0] === 'help' && child.children.length === 0);
  if (helpChild) helpChild.argChoices = [spec.children.filter((child) => child !== helpChild).flatMap((child) => child.names)];
  return spec;
}

function describeOption(option: Option): OptionSpec {
  return {
    names: [option.short, option.long].filter((name): name is string => Boolean(name)),
    description: option.description,
    takesValue: option.required || option.optional,
    choices: option.argChoices ?? [],
    files: /<(path|file)\b/i.test(option.flags),
  };
}

function walk(spec: CommandSpec, visit: (spec: CommandSpec, ancestors: CommandSpec[]) => void, ancestors: CommandSpec[] = []): void {
  visit(spec, ancestors);
  for (const child of spec.children) walk(child, visit, [...ancestors, spec]);
}

/** Every option valid on a command: its own and its ancestors'. */
function optionsAt(spec: CommandSpec, ancestors: CommandSpec[]): OptionSpec[] {
  const inherited = ancestors.flatMap((ancestor) => ancestor.options.filter((option) => !option.names.includes('--help')));
  return [...spec.options, ...inherited];
}

// ---- shared shell text: the data as `case` functions (bash and zsh read the same ones) ----

/** POSIX single quotes. */
function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Case patterns for "this command path and everything below it". */
function scopePatterns(spec: CommandSpec, key: string): string[] {
  if (spec.path === '') return [`*${sq(`|${key}`)}`];
  const patterns = [sq(`${spec.path}|${key}`)];
  if (spec.children.length > 0) patterns.push(`${sq(`${spec.path} `)}*${sq(`|${key}`)}`);
  return patterns;
}

function caseFunction(name: string, subject: string, arms: [string[], string][], fallback = ''): string {
  const lines = arms.filter(([patterns]) => patterns.length > 0).map(([patterns, body]) => `    ${patterns.join('|')}) ${body} ;;`);
  return [`${name}() {`, `  case "${subject}" in`, ...lines, `  esac`, ...(fallback ? [`  ${fallback}`] : []), `}`].join('\n');
}

function shellData(prefix: string, tree: CommandSpec, withDescriptions: boolean): string {
  const child: [string[], string][] = [];
  const commands: [string[], string][] = [];
  const options: [string[], string][] = [];
  const valued: [string[], string][] = [];
  const values: [string[], string][] = [];
  const argValues: [string[], string][] = [];
  walk(tree, (spec, ancestors) => {
    for (const sub of spec.children) child.push([sub.names.map((name) => sq(`${spec.path}|${name}`)), `echo ${sq(sub.path)}`]);
    if (spec.children.length > 0) {
      const words = withDescriptions
        ? spec.children.flatMap((sub) => sub.names.map((name) => sq(`${name}:${sub.description}`))).join(' ')
        : sq(spec.children.flatMap((sub) => sub.names).join(' '));
      commands.push([[sq(spec.path)], withDescriptions ? `printf '%s\\n' ${words}` : `echo ${words}`]);
    }
    const all = optionsAt(spec, ancestors);
    const names = withDescriptions
      ? all.flatMap((option) => option.names.map((name) => sq(`${name}:${option.description}`))).join(' ')
      : sq(all.flatMap((option) => option.names).join(' '));
    options.push([[sq(spec.path)], withDescriptions ? `printf '%s\\n' ${names}` : `echo ${names}`]);
    for (const option of spec.options.filter((o) => o.takesValue)) {
      const patterns = option.names.flatMap((name) => scopePatterns(spec, name));
      valued.push([patterns, 'return 0']);
      if (option.choices.length > 0) values.push([patterns, `echo ${sq(option.choices.join(' '))}`]);
      else if (option.files) values.push([patterns, 'echo @files']);
    }
    spec.argChoices.forEach((choices, index) => {
      if (choices.length > 0) argValues.push([[sq(`${spec.path}|${index}`)], `echo ${sq(choices.join(' '))}`]);
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
function shellWalker(prefix: string, firstIndex: number, wordsVar: string, cwordVar: string): string {
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

// ---- bash ----

function bashScript(tree: CommandSpec, bin: string): string {
  const f = `_${bin.replace(/\W/g, '_')}`;
  return `# ${bin} completion for bash, generated by \`${bin} completion bash\`.
# Load it: source <(${bin} completion bash)   (e.g. in ~/.bashrc), or save it as
# ~/.local/share/bash-completion/completions/${bin}

${shellData(f, tree, false)}

${shellWalker(f, 1, 'COMP_WORDS', '$COMP_CWORD')}

${f}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath nargs valueopt values
  COMPREPLY=()
  ${f}_walk
  [ "$cur" = '=' ] && cur=''
  if [ -n "$valueopt" ]; then
    values="$(${f}_values "$cmdpath" "$valueopt")"
    if [ "$values" = '@files' ]; then
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$cur"))
    else
      COMPREPLY=($(compgen -W "$values" -- "$cur"))
    fi
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(${f}_options "$cmdpath")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(${f}_commands "$cmdpath") $(${f}_argvalues "$cmdpath" "$nargs")" -- "$cur"))
  fi
}

complete -F ${f} ${bin}
`;
}

// ---- zsh ----

function zshScript(tree: CommandSpec, bin: string): string {
  const f = `_${bin.replace(/\W/g, '_')}`;
  return `#compdef ${bin}
# ${bin} completion for zsh, generated by \`${bin} completion zsh\`.
# Load it: save it as _${bin} in a directory of $fpath (before compinit runs), or after compinit:
#   source <(${bin} completion zsh)

${shellData(f, tree, true)}

${shellWalker(f, 2, 'words', '$CURRENT')}

${f}() {
  local cmdpath nargs valueopt values
  local -a specs
  ${f}_walk
  if [[ -z $valueopt && $PREFIX == -*=* ]] && ${f}_valued "$cmdpath" "\${PREFIX%%=*}"; then
    valueopt="\${PREFIX%%=*}"
    compset -P '*='
  fi
  if [[ -n $valueopt ]]; then
    values="$(${f}_values "$cmdpath" "$valueopt")"
    if [[ $values == @files ]]; then _files; elif [[ -n $values ]]; then compadd -- \${=values}; fi
    return
  fi
  if [[ $PREFIX == -* ]]; then
    specs=("\${(@f)$(${f}_options "$cmdpath")}")
    _describe -t options option specs
  else
    specs=("\${(@f)$(${f}_commands "$cmdpath")}")
    [[ -n \${specs[1]} ]] && _describe -t commands command specs
    values="$(${f}_argvalues "$cmdpath" "$nargs")"
    [[ -n $values ]] && compadd -- \${=values}
  fi
  return 0
}

if [[ "\${funcstack[1]}" = "${f}" ]]; then
  ${f} "$@"
else
  compdef ${f} ${bin}
fi
`;
}

// ---- fish ----

/** fish single quotes. */
function fq(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function fishSwitch(name: string, arms: [string[], string][], fallback = ''): string {
  const lines = arms.flatMap(([patterns, body]) => [`        case ${patterns.join(' ')}`, `            ${body}`]);
  return [`function ${name}`, '    switch "$argv[1]|$argv[2]"', ...lines, '    end', ...(fallback ? [`    ${fallback}`] : []), 'end'].join('\n');
}

function fishScript(tree: CommandSpec, bin: string): string {
  const f = `__${bin.replace(/\W/g, '_')}`;
  const child: [string[], string][] = [];
  const valued: [string[], string][] = [];
  const lines: string[] = [];
  const c = `complete -c ${bin}`;
  walk(tree, (spec) => {
    for (const sub of spec.children) {
      child.push([sub.names.map((name) => fq(`${spec.path}|${name}`)), `echo ${fq(sub.path)}`]);
      for (const name of sub.names) lines.push(`${c} -n ${fq(`${f}_is ${fq(spec.path)}`)} -a ${fq(name)} -d ${fq(sub.description)}`);
    }
    // Every command has -h, --help: the root's line covers them all.
    for (const option of spec.options.filter((o) => spec.path === '' || !o.names.includes('--help'))) {
      const patterns = option.names.map((name) => fq(spec.path === '' ? `*|${name}` : `${spec.path}|${name}`));
      if (option.takesValue) {
        valued.push([patterns, 'return 0']);
        if (spec.path !== '' && spec.children.length > 0) valued.push([option.names.map((name) => fq(`${spec.path} *|${name}`)), 'return 0']);
      }
      const flags = option.names.map((name) => (name.startsWith('--') ? `-l ${fq(name.slice(2))}` : name.length === 2 ? `-s ${fq(name.slice(1))}` : `-o ${fq(name.slice(1))}`));
      const value = !option.takesValue ? '' : option.choices.length > 0 ? ` -x -a ${fq(option.choices.join(' '))}` : option.files ? ' -r -F' : ' -x';
      const scope = spec.path === '' ? '' : ` -n ${fq(spec.children.length > 0 ? `${f}_under ${fq(spec.path)}` : `${f}_is ${fq(spec.path)}`)}`;
      lines.push(`${c}${scope} ${flags.join(' ')}${value} -d ${fq(option.description)}`);
    }
    spec.argChoices.forEach((choices, index) => {
      if (choices.length > 0) lines.push(`${c} -n ${fq(`${f}_arg ${fq(spec.path)} ${index}`)} -a ${fq(choices.join(' '))}`);
    });
  });
  return `# ${bin} completion for fish, generated by \`${bin} completion fish\`.
# Load it: ${bin} completion fish > ~/.config/fish/completions/${bin}.fish

${fishSwitch(`${f}_child`, child)}

${fishSwitch(`${f}_valued`, valued, 'return 1')}

# Sets ${f}_cmd (the command path) and ${f}_nargs (positional arguments so far) from the words before the cursor.
function ${f}_walk
    set -l words (commandline -opc)
    set -e words[1]
    set -g ${f}_cmd ''
    set -g ${f}_nargs 0
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case '--*=*'
            case '-*'
                if ${f}_valued "$${f}_cmd" $word
                    set skip 1
                end
            case '*'
                set -l next (${f}_child "$${f}_cmd" $word)
                if test -n "$next"
                    set -g ${f}_cmd $next
                    set -g ${f}_nargs 0
                else
                    set -g ${f}_nargs (math $${f}_nargs + 1)
                end
        end
    end
end

function ${f}_is
    ${f}_walk
    test "$${f}_cmd" = "$argv[1]"
end

function ${f}_under
    ${f}_walk
    test "$${f}_cmd" = "$argv[1]"; or string match -q -- "$argv[1] *" "$${f}_cmd"
end

function ${f}_arg
    ${f}_walk
    test "$${f}_cmd" = "$argv[1]" -a "$${f}_nargs" = "$argv[2]"
end

${c} -f
${lines.join('\n')}
`;
}

const GENERATORS: Record<Shell, (tree: CommandSpec, bin: string) => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };
