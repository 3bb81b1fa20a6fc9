// A generated history as issue 45 measures one: weekly runs of a site whose pages are all read again every week (a new
// generated_at each), about `flip` of their 36 checks flipping a week (the check's value following), the score and
// label following the checks. Written through the store's own write path (startRun, addSnapshots by pages of 100,
// finishRun), seeded, the same on every machine. Used by test/history/sql-store/compact.test.ts and scripts/bench/history.mjs.
import { xorshift32 as random } from './seeded.mjs';

export const CHECK_IDS = [
  '404_page',
  'charset',
  'content_keywords',
  'content_length',
  'defer_javascript',
  'deprecated_html_tags',
  'doctype',
  'dom_size',
  'favicon',
  'headings',
  'htst',
  'http2',
  'http_requests',
  'https_encryption',
  'image_format',
  'image_keywords',
  'in_page_links',
  'inline_css',
  'language',
  'load_time',
  'meta_description',
  'meta_viewport',
  'mixed_content',
  'noindex',
  'page_size',
  'plaintext_email',
  'robots',
  'seo_friendly_url',
  'server_signature',
  'sitemap',
  'social',
  'structured_data',
  'text_compression',
  'text_html_ratio',
  'title',
  'unsafe_cross_origin_links',
];

const ORIGIN = 'https://rank.example.com';

/**
 * Records `weeks` weekly runs of `pages` pages into `store`; `snapshotOf` is the history's own (src/history/snapshot.ts).
 * Returns the number of snapshots written.
 */
export async function recordGeneratedHistory(store, snapshotOf, { pages = 2_000, weeks = 26, flip = 0.02, seed = 45 } = {}) {
  const next = random(seed);
  const passed = Array.from({ length: pages }, () => CHECK_IDS.map(() => next() < 0.75));
  let written = 0;
  for (let week = 0; week < weeks; week++) {
    const started = new Date(Date.UTC(2026, 0, 1 + week * 7, 6)).toISOString();
    const run = await store.startRun({ started, command: 'rsapi audit', selection: '{"job":"weekly"}', origin: ORIGIN, shard: undefined, ci: undefined });
    for (let from = 0; from < pages; from += 100) {
      const snapshots = [];
      for (let page = from; page < Math.min(from + 100, pages); page++) {
        const states = passed[page];
        if (week > 0) for (let c = 0; c < states.length; c++) if (next() < flip) states[c] = !states[c];
        const results = {};
        let score = 0;
        for (let c = 0; c < CHECK_IDS.length; c++) {
          const id = CHECK_IDS[c];
          results[id] = { passed: states[c], importance: 'medium', value: states[c] ? `${id}: fine` : `${id}: ${(page * 31 + c) % 97} problems` };
          if (states[c]) score++;
        }
        const generated = new Date(Date.UTC(2026, 0, 1 + week * 7, 6) + page * 1_000).toISOString().replace(/Z$/, '000Z');
        const record = {
          id: page + 1,
          url: `shop-${page % 40}.example.com/catalogue/item-${page}`,
          project: `shop-${page % 40}.example.com`,
          score: Math.round((100 * score) / CHECK_IDS.length),
          result: score >= 29 ? 'good' : score >= 18 ? 'decent' : 'bad',
          generated_at: generated,
          results,
        };
        snapshots.push(snapshotOf(record, ORIGIN));
      }
      await store.addSnapshots(run, snapshots);
      written += snapshots.length;
    }
    await store.finishRun(run, { finished: started, exitCode: 0, complete: true });
  }
  return written;
}
