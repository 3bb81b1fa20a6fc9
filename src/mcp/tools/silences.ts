// What a list's service silently did not do (src/api/list-silences.ts), said in a tool's answer with the arguments' names.
import type { ListSilences } from '../../api/list-silences.js';

/** `the service ignored sort_by score (rows came back in another order); rows as received`. */
export function silenceNotes(silences: ListSilences, how: string): string[] {
  return silences.found().map((silence) => {
    const argument = silence.flag.replace(/^--/, '').replace(/-/g, '_');
    const why = silence.kind === 'order' ? 'records came back in another order' : `${silence.misses} of ${silence.checked} records do not match it`;
    return `the service ignored ${argument} (${why}); ${how}`;
  });
}
