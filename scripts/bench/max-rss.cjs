// Preloaded by the bench (NODE_OPTIONS=--require): on exit, appends the process's peak RSS in KiB to $RSAPI_BENCH_RSS_FILE.
'use strict';
const { appendFileSync } = require('node:fs');

process.on('exit', () => {
  if (process.env.RSAPI_BENCH_RSS_FILE) appendFileSync(process.env.RSAPI_BENCH_RSS_FILE, `${process.resourceUsage().maxRSS}\n`);
});
