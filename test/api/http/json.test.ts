// Exact JSON: integers beyond 2^53 kept exact as bigint and written back as they came; nesting capped without a stack overflow.
import { describe, expect, it } from 'vitest';
import { JsonTooDeepError, MAX_JSON_DEPTH, parseJson, stringifyJson } from '../../../src/api/http/json.js';

describe('parseJson', () => {
  it('keeps an id beyond 2^53 exact, as a bigint', () => {
    const value = parseJson('{"data":[{"id":9007199254740993,"score":71},{"id":-12345678901234567890}]}') as { data: { id: unknown }[] };
    expect(value.data[0]!.id).toBe(9007199254740993n);
    expect(value.data[1]!.id).toBe(-12345678901234567890n);
  });

  it('leaves safe integers, fractions, exponents and digits inside strings as JSON.parse does', () => {
    const text = '{"a":9007199254740991,"b":1.5,"c":1e300,"d":"9007199254740993","e":12345678901234567.5}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it('is not fooled by quotes and brackets inside strings', () => {
    const text = '{"a":"[[[\\"{{","id":90071992547409930}';
    expect(parseJson(text, 2)).toEqual({ a: '[[["{{', id: 90071992547409930n });
  });

  it('refuses nesting past the cap before anything recursive runs, even 100,000 levels', () => {
    expect(() => parseJson(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toThrow(JsonTooDeepError);
    expect(() => parseJson(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).not.toThrow();
  });

  it('counts the depth of objects and arrays mixed, outside strings only, at the cap and one past it', () => {
    const nested = (levels: number, inner: string) => {
      let text = inner;
      for (let level = 0; level < levels; level++) text = level % 2 ? `{"k":${text},"s":"]}[{"}` : `[${text},"}}]]"]`;
      return text;
    };
    expect(() => parseJson(nested(MAX_JSON_DEPTH, '1'))).not.toThrow();
    expect(() => parseJson(nested(MAX_JSON_DEPTH + 1, '1'))).toThrow(JsonTooDeepError);
    // A run of 16 digits inside a string is no integer; one outside, in a fraction, leaves the value as JSON.parse's.
    const text = nested(4, '{"d":"12345678901234567890","f":0.12345678901234567}');
    expect(parseJson(text)).toEqual(JSON.parse(text));
    // A text with a run of 16 digits is scanned character by character (not parsed first): the cap holds there too.
    expect(() => parseJson(nested(MAX_JSON_DEPTH, '90071992547409930'))).not.toThrow();
    expect(() => parseJson(nested(MAX_JSON_DEPTH + 1, '90071992547409930'))).toThrow(JsonTooDeepError);
  });

  it('refuses text too deep as such even when it is not JSON either', () => {
    expect(() => parseJson('['.repeat(MAX_JSON_DEPTH + 1))).toThrow(JsonTooDeepError);
    expect(() => parseJson('['.repeat(MAX_JSON_DEPTH))).toThrow(SyntaxError);
  });

  it('still refuses text that is not JSON', () => {
    expect(() => parseJson('[[1]]]')).toThrow(SyntaxError);
    expect(() => parseJson('{"a":"unterminated}')).toThrow(SyntaxError);
    expect(() => parseJson('{"id": 90071992547409930')).toThrow(SyntaxError);
  });

  it('cannot be fooled into a bigint by a string that looks like its marker', () => {
    expect(parseJson('{"a":"\\u0000rsapi-integer-x:5","b":90071992547409930}')).toEqual({ a: '\u0000rsapi-integer-x:5', b: 90071992547409930n });
  });
});

describe('stringifyJson', () => {
  it('writes a bigint as the bare integer, exactly', () => {
    expect(stringifyJson({ id: 9007199254740993n, n: [1n] })).toBe('{"id":9007199254740993,"n":[1]}');
    expect(stringifyJson([{ id: 9007199254740993n }], 2)).toBe('[\n  {\n    "id": 9007199254740993\n  }\n]');
  });

  it('round-trips a body with big ids byte for byte when compact', () => {
    const text = '{"data":[{"id":9007199254740993,"url":"https://e.com/"}],"meta":{"total":1}}';
    expect(stringifyJson(parseJson(text))).toBe(text);
  });
});
