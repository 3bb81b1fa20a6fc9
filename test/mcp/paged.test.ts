// The MCP list cursors (src/mcp/paged.ts): what a cursor holds, and a cursor edited by hand refused, not sent on.
import { describe, expect, it } from 'vitest';
import { encodeCursor, startingPosition } from '../../src/mcp/paged.js';

const given = { search: undefined, project: undefined, result: undefined };
const edited = (position: Record<string, unknown>) => Buffer.from(JSON.stringify({ t: 'list_reports', ...position })).toString('base64url');

describe('startingPosition', () => {
  it('goes on where a cursor of the tool says, with its filters', () => {
    const cursor = encodeCursor('list_reports', { filters: { ...given, project: 'a.example' }, page: 3, skip: 7, perPage: 50 });
    expect(startingPosition('list_reports', cursor, given, 10)).toEqual({ filters: { ...given, project: 'a.example' }, page: 3, skip: 7, perPage: 50 });
  });

  it.each([
    ['a negative skip', { filters: {}, page: 1, skip: -2, perPage: 10 }],
    ['page 0', { filters: {}, page: 0, skip: 0, perPage: 10 }],
    ['a filter the tool does not have', { filters: { sortBy: 'nonsense' }, page: 1, skip: 0, perPage: 10 }],
    ['a filter that is not text', { filters: { project: { $ne: 1 } }, page: 1, skip: 0, perPage: 10 }],
    ['a page size the service does not offer', { filters: {}, page: 1, skip: 0, perPage: 7 }],
    ['filters that are null', { filters: null, page: 1, skip: 0, perPage: 10 }],
    ['filters that are a list', { filters: ['x'], page: 1, skip: 0, perPage: 10 }],
  ])('refuses a cursor edited by hand: %s', (_name, position) => {
    expect(() => startingPosition('list_reports', edited(position), given, 10)).toThrow(/cursor: not a cursor of list_reports/);
  });
});
