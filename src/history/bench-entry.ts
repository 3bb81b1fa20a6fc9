// What scripts/bench/history.mjs bundles to write and read a history through the store's own path (no CLI).
export { historyLocation } from './location.js';
export { openHistory } from './open.js';
export { snapshotOf } from './snapshot.js';
export { SQL } from './sql.js';
