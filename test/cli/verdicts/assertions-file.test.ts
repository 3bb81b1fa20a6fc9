// The assertions file: rules read with their lines, every mistake refused with the file, the line and the nearest word.
import { rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { assertPath, loadAssertions, parseAssertions } from '../../../src/cli/verdicts/assertions-file.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const EXAMPLE = `{
  "$schema": "./node_modules/rsapi/schema/rsapi.config.schema.json",
  "assert": [
    { "match": "**", "minScore": 50, "checks": { "title": "error", "meta_description": "error", "http2": "off" } },
    {
      "match": "example.com/blog/**",
      "minScore": 70,
      "result": "decent",
      "checks": { "dom_size": "warn" },
      "importance": { "high": "error", "medium": "warn" }
    }
  ]
}
`;

function refusal(text: string): UsageError {
  try {
    parseAssertions(text, 'rsapi.config.json');
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('parseAssertions', () => {
  it('a file an editor saved with a byte order mark is read as without it; a backwards range says so in words', () => {
    const path = join(tmpdir(), `rsapi-bom-${process.pid}.json`);
    writeFileSync(path, '\uFEFF{ "assert": [ { "minScore": 50 } ] }');
    try {
      expect(loadAssertions(path).rules).toHaveLength(1);
    } finally {
      rmSync(path);
    }
    expect(() => parseAssertions('{ "assert": [ { "match": "example.com/[z-a]", "minScore": 1 } ] }', 'rules.json')).toThrow(
      /bad glob "example\.com\/\[z-a\]": the range "z-a" in "\[z-a\]" at character 13 runs backwards \(write it "a-z"\)$/,
    );
  });

  it("reads the issue's example: each rule with its file and line", () => {
    const { rules } = parseAssertions(EXAMPLE, 'rsapi.config.json');
    expect(rules.map((r) => [r.match, r.minScore, r.result, r.source])).toEqual([
      ['**', 50, undefined, 'rsapi.config.json:4'],
      ['example.com/blog/**', 70, 'decent', 'rsapi.config.json:5'],
    ]);
    expect(rules[0]!.checks).toEqual({ title: 'error', meta_description: 'error', http2: 'off' });
    expect(rules[1]!.importance).toEqual({ high: 'error', medium: 'warn' });
    expect(rules[1]!.test.test('example.com/blog/2026/x')).toBe(true);
    expect(rules[1]!.test.test('example.com/pricing')).toBe(false);
  });

  it.each([
    ['an unknown check id', EXAMPLE.replace('"dom_size"', '"dom_sise"'), 'rsapi.config.json:9: unknown check id "dom_sise"; did you mean "dom_size"?'],
    ['a bad level', EXAMPLE.replace('"medium": "warn"', '"medium": "warning"'), 'rsapi.config.json:10: unknown level "warning"; one of "error", "warn", "off"'],
    [
      'a bad glob',
      EXAMPLE.replace('example.com/blog/**', 'example.com/{blog/**'),
      'rsapi.config.json:6: bad glob "example.com/{blog/**": a "{" is never closed',
    ],
    ['an unknown rule key', EXAMPLE.replace('"minScore": 70', '"minscore": 70'), 'rsapi.config.json:7: unknown key "minscore"; did you mean "minScore"?'],
    ['a level typed wrong', EXAMPLE.replace('"title": "error"', '"title": "eror"'), 'rsapi.config.json:4: unknown level "eror"; did you mean "error"?'],
    ['an unknown importance', EXAMPLE.replace('"high"', '"hihg"'), 'rsapi.config.json:10: unknown importance "hihg"; did you mean "high"?'],
    [
      'a result that is none',
      EXAMPLE.replace('"decent"', '"fine"'),
      'rsapi.config.json:8: unknown result "fine" (the worst result that passes); one of "good", "decent", "bad"',
    ],
    ['a score out of range', EXAMPLE.replace('"minScore": 50', '"minScore": 500'), 'rsapi.config.json:4: "minScore" must be a score from 0 to 100'],
    ['no JSON', '{\n  "assert": [\n    { "match": "**", }\n  ]\n}', /^rsapi\.config\.json:3: not JSON: /],
    ['a misspelt top-level key', EXAMPLE.replace('"assert"', '"asserts"'), 'rsapi.config.json:3: unknown key "asserts"; did you mean "assert"?'],
    [
      'a file nested deeper than any rule',
      `{ "assert": ${'['.repeat(8000)}${']'.repeat(8000)} }`,
      'rsapi.config.json:1: nested more than 32 levels deep; no key of the file is',
    ],
    ['no list of rules', '{ "assert": { "match": "**" } }', 'rsapi.config.json:1: "assert" must be a list of rules: "assert": [ { "match": "**", ... } ]'],
  ])('%s is a usage error naming the file and the line', (_name, text, message) => {
    const error = refusal(text);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  it('the path: the flag, else RSAPI_ASSERT, else rsapi.config.json for a bare --assert; nothing without either', () => {
    expect(assertPath('x.json', { RSAPI_ASSERT: 'y.json' })).toBe('x.json');
    expect(assertPath(true, { RSAPI_ASSERT: 'y.json' })).toBe('y.json');
    expect(assertPath(undefined, { RSAPI_ASSERT: 'y.json' })).toBe('y.json');
    expect(assertPath(true, {})).toBe('rsapi.config.json');
    expect(assertPath(undefined, {})).toBeUndefined();
  });
});
