// Entry point of the bundled CLI (bin/rsapi loads it): V8's compile cache, signals, and the process exit code.
import { setMaxListeners } from 'node:events';
import module from 'node:module';

enableCompileCache();
await main(process.argv.slice(2));

/** The process's one invocation: its terminal, Ctrl-C and stdout, made here and passed to the program. */
async function main(argv: string[]): Promise<void> {
  // Stack traces of RSAPI_DEBUG=1 / --verbose point into src/*.ts through the shipped source maps; set before the
  // chunks load, and only then, so an ordinary start-up does not parse the maps.
  if (process.env.RSAPI_DEBUG === '1' || argv.includes('--verbose') || argv.includes('-v')) process.setSourceMapsEnabled(true);
  // StdoutState comes with the program: stdout-gone.ts is in program.ts's chunk (imported alone, it was two files more).
  const { run, processTerminal, createInvocation, StdoutState } = await import('./program.js');
  // A reader that goes away (`rsapi reports list | head`) is not an error. Any other write failure
  // (a full disk, /dev/full) is one line and exit 1, never a stack trace; nothing more is written.
  // A bulk run holds on through EPIPE: it starts no new item, ends the ones under way and picks the exit code.
  const stdoutState = new StdoutState();
  let writeFailed = false;
  let readerGone = false;
  const stdoutFailed = (error: NodeJS.ErrnoException): void => {
    if (readerGone) return; // later writes fail too: nothing more to say
    if (error.code === 'EPIPE') {
      readerGone = true;
      if (!stdoutState.reportGone()) process.exit(0);
      return;
    }
    if (writeFailed) return;
    writeFailed = true;
    process.stderr.write(`rsapi: cannot write the output: ${writeFailure(error)}\n`, () => process.exit(1));
  };
  process.stdout.on('error', stdoutFailed);
  const controller = new AbortController();
  // Every request, retry wait and look-up under way listens to it (a bulk run has dozens at once).
  setMaxListeners(0, controller.signal);
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await run(argv, createInvocation({ terminal: processTerminal(), signal: controller.signal, stdoutState, exitsAfterRun: true }));
  process.exitCode = code;
  // Nothing left to do: do not wait for idle sockets or stdin listeners to let go. Output written just before
  // (help, a completion script: synchronous writes to a file) may have failed: its line and exit 1 come first,
  // whichever of the stream's error event and this callback Node delivers first.
  process.stdout.write('', (error?: Error | null) => {
    if (error && !readerGone) stdoutFailed(error as NodeJS.ErrnoException);
    if (!writeFailed) process.exit(code);
  });
}

/**
 * Node 22.1+: the code V8 compiles for the chunks loaded from here on is kept on disk and reused by the next run (a
 * page of `reports list` starts about 5 ms sooner). NODE_COMPILE_CACHE's directory when set (Node has then enabled it
 * already), else Node's default, node-compile-cache in the OS temp dir. That directory is made here first, one level:
 * where it cannot be made the cache is left off, never the run: Node 22 and 24 loop forever making it under /proc
 * (TMPDIR=/proc), and a temp dir that is missing or read-only only costs the cache.
 */
function enableCompileCache(): void {
  const node = module as { enableCompileCache?: (dir?: string) => unknown };
  if (node.enableCompileCache === undefined) return;
  if (process.env.NODE_COMPILE_CACHE) {
    node.enableCompileCache();
    return;
  }
  const dir = process.getBuiltinModule('node:path').join(process.getBuiltinModule('node:os').tmpdir(), 'node-compile-cache');
  try {
    process.getBuiltinModule('node:fs').mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return;
  }
  node.enableCompileCache(dir);
}

function writeFailure(error: NodeJS.ErrnoException): string {
  const reasons: Record<string, string> = {
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EFBIG: 'the file is too large',
    EIO: 'input/output error',
    EBADF: 'standard output is closed',
  };
  return error.code ? `${reasons[error.code] ?? error.message} (${error.code})` : error.message;
}
