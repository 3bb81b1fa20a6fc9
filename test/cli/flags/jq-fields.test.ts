// The fields a --jq expression reads (a scan of its `.name` paths) and the warning when no record of the output has one.
import { describe, expect, it } from 'vitest';
import { fieldsRead, missingFieldsWarning } from '../../../src/cli/flags/jq-fields.js';

describe('fieldsRead', () => {
  it.each([
    ['.[] | select(.score < 10)', ['score']],
    ['.data.result', ['data', 'result']],
    ['.[0].url', ['url']],
    ['map(.url) | .[] | .x.y', ['url', 'x', 'y']],
    ['"\\(.url) at example.com: \\(.id)" | .x', ['url', 'id', 'x']],
    ['1.5 + .a # .comment\n| .b', ['a', 'b']],
    ['.. | .c?', ['c']],
    ['.a[].b', ['a', 'b']],
    ['length', []],
  ])('%j reads %j', (expression, names) => {
    expect(fieldsRead(expression)).toEqual(names);
  });
});

describe('missingFieldsWarning', () => {
  it('names a field no record has; for score and label, the --json form that takes them from the record model', () => {
    expect(missingFieldsWarning('.[] | select(.score < 10)', JSON.stringify([{ id: 1, result: 50 }]))).toBe(
      'rsapi: warning: --jq reads .score, which no record of the output has (null in every one); --json id,url,score takes score from the record model, in either dialect',
    );
  });

  it('a near miss is named', () => {
    expect(missingFieldsWarning('.[] | .scroe', JSON.stringify([{ id: 1, score: 50 }]))).toMatch(/reads \.scroe, .*; did you mean \.score\?$/);
  });

  it('says nothing when every field read is there (at any depth, in a stream of documents too), or there are no records', () => {
    expect(missingFieldsWarning('.[] | .url', '{"url":1}\n{"url":2}\n')).toBeUndefined();
    expect(missingFieldsWarning('.data.result', '{"data":{"result":"good"},"status":200}')).toBeUndefined();
    expect(missingFieldsWarning('.[] | .score', '[]')).toBeUndefined();
  });
});
