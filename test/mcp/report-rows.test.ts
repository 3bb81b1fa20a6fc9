// A report as the MCP tools show it (src/mcp/report-rows.ts): labels as the CLI shows them.
import { describe, expect, it } from 'vitest';
import { reportDetail } from '../../src/mcp/report-rows.js';

describe('reportDetail', () => {
  it.each([
    [0, 'public'],
    [1, 'private'],
    ['2', 'password'],
    [null, null],
    [7, 7],
  ])('gives privacy %j as %j, in its place among the fields', (privacy, shown) => {
    const detail = reportDetail({ id: 3, url: 'example.com/a', privacy, result: 80, generated_at: 'x' }, 100);
    expect(detail.privacy).toBe(shown);
    expect(Object.keys(detail).slice(0, 3)).toEqual(['id', 'url', 'privacy']);
  });

  it('adds no privacy to a report the service sent without one', () => {
    expect(reportDetail({ id: 3, url: 'example.com/a', result: 80 }, 100)).not.toHaveProperty('privacy');
  });
});
