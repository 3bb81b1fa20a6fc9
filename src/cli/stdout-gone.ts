// The reader of stdout going away (EPIPE, `| head -2`): a run that must end cleanly holds on and is told; otherwise the process just ends, 0.
const gone = new AbortController();
let holders = 0;

/** Raised once the reader of the process's stdout has gone away. */
export const stdoutGone: AbortSignal = gone.signal;

/** Called on EPIPE: true when a run holds on (it stops starting work and ends itself), false when the process may exit at once. */
export function reportStdoutGone(): boolean {
  gone.abort();
  return holders > 0;
}

/** While held, EPIPE does not end the process: a bulk run finishes the items under way, prints its summary and picks the exit code. */
export function holdThroughStdoutGone(): () => void {
  holders++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders--;
  };
}
