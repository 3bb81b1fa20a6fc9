// What `history import` takes of an export line (src/history/exported.ts).
import { describe, expect, it } from 'vitest';
import { exportedRunProblem } from '../../src/history/exported.js';

const run = { id: 1, started: '2026-01-01T00:00:00.000Z', command: 'reports list', selection: '{}', origin: 'https://rank.example.com', complete: true };
const snapshot = {
  origin: 'https://rank.example.com',
  identity: 'example.com/a',
  reportId: '7',
  generatedAt: '2026-01-01T00:00:00Z',
  checksText: 'title+0123abcd',
};

describe('exportedRunProblem', () => {
  it('takes what export writes, a report recorded without id or generated_at included (both empty there)', () => {
    expect(exportedRunProblem({ run, snapshots: [snapshot, { ...snapshot, reportId: '', generatedAt: '' }] })).toBeUndefined();
  });

  it('refuses an empty service or URL, which names nothing', () => {
    expect(exportedRunProblem({ run: { ...run, origin: '' }, snapshots: [] })).toBe('run.origin is empty');
    expect(exportedRunProblem({ run, snapshots: [{ ...snapshot, identity: '' }] })).toBe('snapshots[0].identity is empty');
  });
});
