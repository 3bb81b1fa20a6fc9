// V8's heap policy for commands that stream many pages: collect often rather than grow, so memory stays flat.

/**
 * Reading every page of a long list makes garbage at a steady rate, and the pages fetched ahead live long
 * enough to reach V8's old generation; left to its defaults V8 lets that grow with the list (peak RSS
 * 10,000 -> 100,000 reports: 68 -> 109 MB on Node 20). --optimize-for-size makes it collect instead (68 -> 82 MB),
 * at no measurable cost in time. Set at run time, only for such commands: loading node:v8 costs start-up.
 */
export async function preferSmallHeap(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--optimize-for-size');
}
