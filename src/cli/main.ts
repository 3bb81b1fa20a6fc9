// Entry point of the bundled CLI: the --version fast path, V8's compile cache, signals, and the process exit code.
import { setMaxListeners } from 'node:events';
import module from 'node:module';

// The version as the build fixes it (scripts/build.mjs), not imported: for --version this file is the only one loaded.
declare const __RSAPI_VERSION__: string;
const VERSION = __RSAPI_VERSION__;

const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  printVersion();
} else {
  // Node 22.1+: the code V8 compiles for the chunks loaded from here on is kept on disk (Node's default place,
  // NODE_COMPILE_CACHE or the OS temp dir) and reused by the next run. Nothing is loaded for --version.
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // A reader that goes away (`rsapi reports list | head`) is not an error. Any other write failure
  // (a full disk, /dev/full) is one line and exit 1, never a stack trace; nothing more is written.
  // A bulk run holds on through EPIPE: it starts no new item, ends the ones under way and picks the exit code.
  const { reportStdoutGone } = await import('./stdout-gone.js');
  let writeFailed = false;
  let readerGone = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (readerGone) return; // later writes fail too: nothing more to say
    if (error.code === 'EPIPE') {
      readerGone = true;
      if (!reportStdoutGone()) process.exit(0);
      return;
    }
    if (writeFailed) return;
    writeFailed = true;
    process.stderr.write(`rsapi: cannot write the output: ${writeFailure(error)}\n`, () => process.exit(1));
  });
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
  // Stack traces of RSAPI_DEBUG=1 / --verbose point into src/*.ts through the shipped source maps; set before the
  // chunks load, and only then, so an ordinary start-up does not parse the maps.
  if (process.env.RSAPI_DEBUG === '1' || argv.includes('--verbose') || argv.includes('-v')) process.setSourceMapsEnabled(true);
  const { run, processTerminal } = await import('./program.js');
  const code = await run(argv, processTerminal(), controller.signal);
  process.exitCode = code;
  // Nothing left to do: do not wait for idle sockets or stdin listeners to let go.
  process.stdout.write('', () => process.exit(code));
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

/**
 * Straight to file descriptor 1: `process.stdout` would load Node's stream modules first, a third of --version's
 * cost over Node's own start-up. A closed pipe is not an error; a descriptor that would block gets the stream.
 */
function printVersion(): void {
  try {
    // Not `import … from 'node:fs'`: an ES import of a built-in reads all its exports, and fs.promises loads
    // the promise API with readline behind it.
    process.getBuiltinModule('node:fs').writeSync(1, `${VERSION}\n`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN') process.stdout.write(`${VERSION}\n`);
    else if (code !== 'EPIPE') {
      process.exitCode = 1;
      process.stderr.write(`rsapi: cannot write the output: ${writeFailure(error as NodeJS.ErrnoException)}\n`);
    }
  }
}
