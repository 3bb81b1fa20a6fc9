// Entry point of the bundled CLI: the --version fast path, signals, and the process exit code.
import { setMaxListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { VERSION } from '../version.js';
import { reportStdoutGone } from './stdout-gone.js';

const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  // undici parses HTTP with WebAssembly; V8's optimising tier compiles it again in the background, and
  // the process waits for that at exit (~100 ms, longer than a whole one-page request). The baseline
  // compiler is plenty for a CLI's few responses. Set before undici is loaded.
  setFlagsFromString('--liftoff-only');
  // A reader that goes away (`rsapi reports list | head`) is not an error. Any other write failure
  // (a full disk, /dev/full) is one line and exit 1, never a stack trace; nothing more is written.
  // A bulk run holds on through EPIPE: it starts no new item, ends the ones under way and picks the exit code.
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
