// A stored selection as the flags that select it (shared.ts selectionFlags): known keys and any key added later.
import { describe, expect, it } from 'vitest';
import { selectionFlags } from '../../../../src/cli/commands/history/shared.js';

describe('selectionFlags', () => {
  it.each([
    ['{}', ''],
    ['{"all":true,"project":"x"}', '--all --project x'],
    ['{"input":"1216b191be2baef3","urls":12}', '12 URLs'],
    ['{"input":"1216b191be2baef3","shard":"1/3","urls":1}', '1 URL --shard 1/3'],
    ['{"job":"weekly"}', '--job weekly'],
    ['{"sitemaps":["https://x/"],"include":["/blog/**","/docs/**"]}', "--from-sitemap https://x/ --include '/blog/**' --include '/docs/**'"],
    ['{"file":"urls.txt"}', '--from-file urls.txt'],
    ['{"perPage":25,"sortBy":"score"}', '--per-page 25 --sort-by score'],
    ['{"search":"a b"}', "--search 'a b'"],
    ['not json', 'not json'],
  ])('%s → %s', (selection, flags) => {
    expect(selectionFlags(selection)).toBe(flags);
  });
});
