// Field selection, identifiers, default columns and cell values (raw and for display).
process.env.TZ = 'Asia/Kolkata'; // UTC+05:30, no daylight saving: local times below are fixed.

import { describe, expect, it } from 'vitest';
import { columnsFor, defaultColumns, displayCell, rawCell, recordId, selectFields } from '../../src/output/fields.js';

describe('defaultColumns', () => {
  it('lists the report columns of the contract', () => {
    expect(defaultColumns('report')).toEqual(['id', 'url', 'project', 'result', 'score', 'privacy', 'generated_at']);
  });
  it('lists project and created_at for projects without a sample', () => {
    expect(defaultColumns('project')).toEqual(['project', 'created_at']);
  });
  it('adds every count-like key of the sample project, in its order', () => {
    const sample = { reports_count: 3, project: 'a', count: 1, discount: 5, created_at: 'x', good_count: '2' };
    expect(defaultColumns('project', sample)).toEqual(['project', 'created_at', 'reports_count', 'count', 'good_count']);
  });
  it('returns a fresh array each time', () => {
    defaultColumns('report').push('oops');
    expect(defaultColumns('report')).not.toContain('oops');
  });
  it('prefers --fields when given, and ignores an empty list', () => {
    expect(columnsFor('report', ['b', 'a'])).toEqual(['b', 'a']);
    expect(columnsFor('project', [])).toEqual(['project', 'created_at']);
  });
});

describe('recordId', () => {
  it.each([
    { name: 'numeric report id', record: { id: 12 }, kind: 'report' as const, id: '12' },
    { name: 'string report id', record: { id: '12' }, kind: 'report' as const, id: '12' },
    { name: 'missing report id', record: { url: 'x' }, kind: 'report' as const, id: '' },
    { name: 'null report id', record: { id: null }, kind: 'report' as const, id: '' },
    { name: 'object report id', record: { id: { v: 1 } }, kind: 'report' as const, id: '' },
    { name: 'project name', record: { id: 4, project: 'example.com' }, kind: 'project' as const, id: 'example.com' },
    { name: 'missing project name', record: { id: 4 }, kind: 'project' as const, id: '' },
  ])('$name', ({ record, kind, id }) => {
    expect(recordId(record, kind)).toBe(id);
  });
});

describe('selectFields', () => {
  it('returns the record untouched without fields', () => {
    const record = { z: 1, a: { nested: [1] } };
    expect(selectFields(record, undefined)).toBe(record);
  });
  it('keeps only the fields, in their order, missing ones as null', () => {
    const picked = selectFields({ id: 1, url: 'u', score: '71' }, ['score', 'nope', 'id']);
    expect(Object.keys(picked)).toEqual(['score', 'nope', 'id']);
    expect(picked).toEqual({ score: '71', nope: null, id: 1 });
  });
  it('does not find inherited properties nor touch the prototype', () => {
    const picked = selectFields({ id: 1 }, ['constructor', '__proto__', 'toString']);
    expect(JSON.stringify(picked)).toBe('{"constructor":null,"__proto__":null,"toString":null}');
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
  });
});

describe('rawCell', () => {
  it.each([
    { value: undefined, text: '' },
    { value: null, text: '' },
    { value: 71, text: '71' },
    { value: '71', text: '71' },
    { value: 0, text: '0' },
    { value: false, text: 'false' },
    { value: { a: [1, 'b'] }, text: '{"a":[1,"b"]}' },
    { value: [], text: '[]' },
    { value: '2026-11-20T09:14:03.000000Z', text: '2026-11-20T09:14:03.000000Z' },
  ])('$value -> "$text"', ({ value, text }) => {
    expect(rawCell(value)).toBe(text);
  });
});

describe('displayCell', () => {
  it('uses the test time zone', () => {
    expect(new Date('2026-01-01T00:00:00Z').getHours()).toBe(5);
  });
  it.each([
    { field: 'privacy', value: 0, text: 'public' },
    { field: 'privacy', value: '1', text: 'private' },
    { field: 'privacy', value: 2, text: 'password' },
    { field: 'privacy', value: 7, text: '7' },
    { field: 'privacy', value: 'secret', text: 'secret' },
    // phpRank's answer to a create that sent no privacy: never an empty cell.
    { field: 'privacy', value: null, text: '-' },
    { field: 'privacy', value: undefined, text: '-' },
    { field: 'score', value: 0, text: '0' },
    { field: 'generated_at', value: '2026-11-20T09:14:03.000000Z', text: '2026-11-20 14:44:03' },
    { field: 'created_at', value: '2026-11-20T23:59:59Z', text: '2026-11-21 05:29:59' },
    { field: 'updated_at', value: '2026-11-20T09:14:03+02:00', text: '2026-11-20 12:44:03' },
    { field: 'updated_at', value: '2026-11-20 09:14:03', text: '2026-11-20 14:44:03' },
    { field: 'last_seen', value: '2026-03-01T10:00:00.5-0130', text: '2026-03-01 17:00:00' },
    { field: 'generated_at', value: 'yesterday', text: 'yesterday' },
    { field: 'generated_at', value: '2026-02-31T10:00:00Z', text: '2026-02-31T10:00:00Z' },
    { field: 'generated_at', value: '2026-11-20', text: '2026-11-20' },
    { field: 'generated_at', value: null, text: '' },
    { field: 'extra', value: { a: 1 }, text: '{"a":1}' },
    { field: 'url', value: 'https://e.com/\u001b[2Jx\ny', text: 'https://e.com/\\x1b[2Jx\\ny' },
    // Internationalised domains and paths as people write them; percent-escapes of ASCII (%2F, %20) stay.
    { field: 'url', value: 'xn--r8jz45g.jp/%E3%83%91%E3%82%B9', text: '例え.jp/パス' },
    { field: 'url', value: 'https://xn--bcher-kva.de:8443/a%2Fb%20c?q=%C3%BC', text: 'https://bücher.de:8443/a%2Fb%20c?q=ü' },
    { field: 'project', value: 'xn--r8jz45g.jp', text: '例え.jp' },
    // A bidi override hidden in an escape is decoded, then escaped for the terminal.
    { field: 'url', value: 'e.com/%E2%80%AEexe', text: 'e.com/\\u202eexe' },
    { field: 'project', value: 'a\u202eexe.txt\u0007\u009b', text: 'a\\u202eexe.txt\\x07\\x9b' },
  ])('$field $value -> "$text"', ({ field, value, text }) => {
    expect(displayCell(field, value)).toBe(text);
  });
});
