// One run of the program: what belongs to it alone (terminal, clock, Ctrl-C, known secrets, stdout state, lock files), made once by its caller and passed down.
import { systemClock, type Clock } from '../../api/http/clock.js';
import { LockFiles } from '../../config/lock-file.js';
import { ExitCode, type ExitCodeValue } from './exit-codes.js';
import { Secrets } from './secrets.js';
import { StdoutState } from '../terminal/stdout-gone.js';
import { stderrWidth, type Terminal } from '../terminal/terminal.js';
import { wrappedAtWords } from '../terminal/stderr.js';

export interface Invocation {
  /** The terminal as commands see it: stdout and stderr redact this invocation's secrets. */
  readonly io: Terminal;
  /** Time and waits (retries, pacing, look-ups); a test passes a fake one so nothing waits real seconds. */
  readonly clock: Clock;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
  readonly secrets: Secrets;
  /** Whether the reader of stdout went away (EPIPE), and the runs that hold on through that. */
  readonly stdoutState: StdoutState;
  /** The lock files held (the settings file's, a journal's): one set per process, shared by its invocations. */
  readonly locks: LockFiles;
  /** What the command's handler returned; the run's exit code unless an error ends it. */
  exitCode: ExitCodeValue;
  /** The process exits as soon as this run ends (main's): its connections are let go, not closed in order. */
  readonly exitsAfterRun?: boolean;
}

export interface InvocationOptions {
  terminal: Terminal;
  signal: AbortSignal;
  clock?: Clock;
  /** main's, which its EPIPE handler tells; by default one that never hears of it (an in-process run). */
  stdoutState?: StdoutState;
  /** Invocations that run side by side in one process share one (else each takes the other's lock for a stale one). */
  locks?: LockFiles;
  /** main's: the process ends with the run (by default an in-process run, whose connections are closed). */
  exitsAfterRun?: boolean;
}

export function createInvocation(options: InvocationOptions): Invocation {
  const { terminal, signal } = options;
  const secrets = new Secrets();
  // No command prints a known secret: a service echoing the key in a record gets it masked on stdout too.
  // Copied by descriptor, not spread: a spread would call the terminal's getters (stdin is made only when read).
  const io: Terminal = Object.defineProperties({} as Terminal, {
    ...Object.getOwnPropertyDescriptors(terminal),
    stdout: { value: secrets.redactedSink(terminal.stdout), enumerable: true },
    stderr: { value: noticesFitted(secrets.redactedSink(terminal.stderr), terminal), enumerable: true },
  });
  return {
    io,
    clock: options.clock ?? systemClock,
    signal,
    secrets,
    stdoutState: options.stdoutState ?? new StdoutState(),
    locks: options.locks ?? new LockFiles(),
    exitCode: ExitCode.ok,
    exitsAfterRun: options.exitsAfterRun === true,
  };
}

/** On a terminal that tells its width, stderr's lines break at words, not wherever the edge falls. */
function noticesFitted<Target extends Terminal['stderr']>(stderr: Target, terminal: Terminal): Target {
  const width = stderrWidth(terminal);
  return width === undefined ? stderr : wrappedAtWords(stderr, width);
}
