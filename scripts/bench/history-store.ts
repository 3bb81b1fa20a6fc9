// What scripts/bench/history.mjs bundles to write and read a history through the store's own path (no CLI).
export { historyLocation } from '../../src/history/location.js';
export { openHistory } from '../../src/history/open.js';
export { snapshotOf } from '../../src/history/snapshot.js';
export { SQL } from '../../src/history/sql.js';
