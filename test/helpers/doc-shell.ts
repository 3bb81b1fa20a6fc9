// A shell for the docs' command lines whose `rsapi` runs in this (test) process: the lines are run by a real bash
// (pipes, redirections, quotes, `export`, `<(...)` as a reader's shell does them) or the zsh or fish they are written
// for, and `rsapi` on their PATH is a small bash script that hands its argv, environment, stdin and working directory
// to this process over loopback and prints what the in-process run wrote (runInProcess: some 20 ms a command, where a
// spawned CLI costs 300 ms).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Shell } from './doc-commands.js';
import { runInProcess } from './run.js';

/** `rsapi` for the shells: argv, env and stdin into a fresh folder, its path and $PWD to the test, the answer back. */
const SHIM = `#!/bin/bash
dir=$(mktemp -d "$RSAPI_DOC_SHELL_DIR/run.XXXXXX") || exit 1
printf '%s\\0' "$@" > "$dir/argv"
env -0 > "$dir/env"
cat > "$dir/stdin"
exec 3<>"/dev/tcp/127.0.0.1/$RSAPI_DOC_SHELL_PORT" || exit 1
printf '%s\\n%s\\n' "$dir" "$PWD" >&3
read -r code <&3
cat "$dir/stdout"
cat "$dir/stderr" >&2
exit "\${code:-1}"
`;

export interface DocShellResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface DocShell {
  /** Runs one command line in `cwd`; bash lines see the variables earlier bash lines exported. */
  run(command: string, shell: Shell): Promise<DocShellResult>;
  close(): Promise<void>;
}

/**
 * A shell over `dir` (its own folder for the shim and each run's files), starting from `env` (HOME, RSAPI_CONFIG_DIR
 * and the variables the page assumes: PATH is added), its lines run in `cwd`.
 */
export async function startDocShell(options: { dir: string; cwd: string; env: Record<string, string> }): Promise<DocShell> {
  const bin = join(options.dir, 'bin');
  const runs = join(options.dir, 'runs');
  mkdirSync(bin, { recursive: true });
  mkdirSync(runs, { recursive: true });
  writeFileSync(join(bin, 'rsapi'), SHIM);
  chmodSync(join(bin, 'rsapi'), 0o755);
  const before = process.cwd();
  const server = createServer((socket) => void answer(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const state = join(options.dir, 'exported.sh');
  const env = {
    ...options.env,
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    RSAPI_DOC_SHELL_DIR: runs,
    RSAPI_DOC_SHELL_PORT: String(port),
  };
  const scriptOf = (command: string, shell: Shell) => {
    if (shell !== 'bash') return command;
    // What one line exports, the next sees: bash's own `export -p`, read back before each line.
    return `[ -f '${state}' ] && source '${state}'\nset -o pipefail\n${command}\n__code=$?\nexport -p > '${state}'\nexit $__code\n`;
  };
  return {
    run: (command, shell) =>
      new Promise((resolve, reject) => {
        const child = spawn(shell, ['-c', scriptOf(command, shell)], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
      }),
    async close() {
      await closeServer(server);
      process.chdir(before);
    },
  };
}

/** One rsapi run a connection: reads the shim's folder, runs the CLI in-process there, writes its output back. */
async function answer(socket: Socket): Promise<void> {
  // Read without ending the iteration early: breaking out of a socket's async iterator destroys the socket.
  const received = await new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += String(chunk);
      if (text.split('\n').length > 2) resolve(text);
    });
  });
  const [dir, cwd] = received.split('\n') as [string, string];
  const argv = readFileSync(join(dir, 'argv'), 'utf8').split('\0').slice(0, -1);
  const env = Object.fromEntries(
    readFileSync(join(dir, 'env'), 'utf8')
      .split('\0')
      .filter((entry) => entry.includes('='))
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
  const stdin = readFileSync(join(dir, 'stdin'), 'utf8');
  // Relative paths of the command (--html report.html, --from-file urls.txt) are the shell's, as for a real process.
  // (Not restored after the run: the two sides of a pipe run at once, in the same folder. close() restores it.)
  if (process.cwd() !== cwd) process.chdir(cwd);
  try {
    const result = await runInProcess({ argv, env, stdin });
    writeFileSync(join(dir, 'stdout'), result.stdout);
    writeFileSync(join(dir, 'stderr'), result.stderr);
    socket.end(`${result.code}\n`);
  } catch (error) {
    writeFileSync(join(dir, 'stdout'), '');
    writeFileSync(join(dir, 'stderr'), `doc shell: ${String(error)}\n`);
    socket.end('1\n');
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
