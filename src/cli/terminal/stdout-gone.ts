// The reader of stdout going away (EPIPE, `| head -2`): a run that must end cleanly holds on and is told; otherwise the process just ends, 0.

/** One invocation's stdout: whether its reader went away, and whether a run holds on through that. */
export class StdoutState {
  private readonly goneController = new AbortController();
  private holders = 0;

  /** Raised once the reader of stdout has gone away; never, for a terminal that cannot tell. */
  get gone(): AbortSignal {
    return this.goneController.signal;
  }

  /** Called on EPIPE: true when a run holds on (it stops starting work and ends itself), false when the process may exit at once. */
  reportGone(): boolean {
    this.goneController.abort();
    return this.holders > 0;
  }

  /** While held, EPIPE does not end the process: a bulk run finishes the items under way, prints its summary and picks the exit code. */
  hold(): () => void {
    this.holders++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders--;
    };
  }
}
