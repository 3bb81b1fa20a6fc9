// reports show's per-check results on a real pseudo-terminal (script(1)) of 80 and 40 columns: the built binary's own reading of the width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/table/width.js';
import { phprankReport, startReportServer } from '../helpers/phprank-checks.js';
import { tempHomePerTest } from '../helpers/settings.js';
import { runOnTerminal, screenLines } from '../helpers/terminal.js';

let server: Awaited<ReturnType<typeof startReportServer>>;
const home = tempHomePerTest('rsapi-checks-pty-', 'config');

beforeAll(async () => {
  server = await startReportServer([phprankReport(7, 'example.com/pricing', ['meta_description', 'title', 'load_time', 'image_keywords', 'favicon'])]);
});
afterAll(async () => {
  await server.close();
});

describe('reports show on a terminal', () => {
  for (const columns of [80, 40]) {
    it(`fits ${columns} columns: every failed check in words, wrapped, nothing cut`, async () => {
      const env = { ...server.env, HOME: home.path, RSAPI_CONFIG_DIR: home.settings.dir, TERM: 'xterm-256color', NO_COLOR: '1' };
      const { code, screen } = await runOnTerminal(['reports', 'show', '7'], { env, size: { columns, rows: 50 } });
      expect(code).toBe(0);
      const lines = screenLines(screen);
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      expect(screen).toContain('checks: 31 of 36 passed');
      const words = screen.replace(/\s+/g, ' ');
      expect(words).toContain('Title: Welcome to the very long and repetitive home page title of our company website — too long (max 60)');
      expect(words).toContain('Image keywords (alt text): 9 — missing: hero.jpg, logo.png, team.jpg, a.png, b.png and 2 more');
      expect(screen.indexOf('Meta description')).toBeLessThan(screen.indexOf('Image keywords'));
      expect(screen).not.toMatch(/^results/m);
    });
  }
});
