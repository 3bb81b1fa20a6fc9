// Runs before each test file. Files share their worker's modules (vitest.config.ts), so what one file changes in the
// process for its own sake is put back here: today only the time zone, which some files pin at their top.
const ORIGINAL_TZ = Symbol.for('rsapi.test.originalTz');
const store = globalThis as { [ORIGINAL_TZ]?: string | undefined };
if (!(ORIGINAL_TZ in store)) store[ORIGINAL_TZ] = process.env.TZ;
if (store[ORIGINAL_TZ] === undefined) delete process.env.TZ;
else process.env.TZ = store[ORIGINAL_TZ];
