// The history page's markup (src/cli/report-files/history-html/page.ts): service text escaped, the data in a script
// element that `</script>` in a URL cannot leave, a policy that lets no other script run and nothing load.
import { describe, expect, it } from 'vitest';
import type { HistoryPageData } from '../../../../src/cli/report-files/history-html/model.js';
import { renderHistoryHtml } from '../../../../src/cli/report-files/history-html/page.js';

const HOSTILE = 'example.com/</script><script>alert(1)</script>';

function data(): HistoryPageData {
  return {
    written: '2026-01-08T10:00:00.000Z',
    labels: ['good', 'decent', 'bad'],
    asked: { maxPages: 10_000 },
    jobs: [
      {
        key: 'shop<b>',
        name: '<img src=x onerror=alert(1)>',
        origin: 'https://rank.example.com',
        urls: [HOSTILE],
        projects: ['example.com'],
        urlProjects: [0],
        checks: ['title'],
        present: [[0]],
        states: [[0]],
        runs: [{ id: 1, started: '2026-01-01T10:00:00.000Z', complete: true, exit: 0, reports: 1, changed: [0, 90, 0, 0, 7], gone: [] }],
      },
    ],
  };
}

describe('renderHistoryHtml', () => {
  const page = renderHistoryHtml(data());

  it("escapes the service's text in the markup", () => {
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('embeds the data as JSON that a URL holding </script> cannot break out of, and reads back whole', () => {
    expect(page).not.toContain('</script><script>alert(1)');
    const json = /<script type="application\/json" id="rsapi-history">([^<]*)<\/script>/.exec(page)?.[1];
    expect(json).toBeDefined();
    expect((JSON.parse(json!) as HistoryPageData).jobs[0]!.urls).toEqual([HOSTILE]);
  });

  it('lets only its own script run (by hash) and loads nothing: no address outside the file', () => {
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page)?.[1]?.replaceAll('&#39;', "'");
    expect(policy).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'; form-action 'none'$/);
    const { createHash } = process.getBuiltinModule('node:crypto');
    const script = /<script>([\s\S]*)<\/script>\s*<\/body>/.exec(page)![1]!;
    expect(policy).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(page).not.toMatch(/<(link|img|iframe)\b/i);
    expect(page).not.toMatch(/<[^>]*\ssrc=/);
  });
});
