// The JSON Schema shipped in the package (schema/rsapi.config.schema.json), held to the check ids, levels and keys the
// reader of the assertions file knows.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_IDS, IMPORTANCES } from '../../../src/api/model/checks.js';
import { RESULTS } from '../../../src/api/model/report-model.js';
import { FILE_KEYS, RULE_KEYS } from '../../../src/cli/verdicts/assertions-file.js';
import { LEVELS } from '../../../src/cli/verdicts/rules.js';
import { assertionsSchemaText } from '../../../src/cli/manual/schema.js';

describe('schema/rsapi.config.schema.json', () => {
  const file = new URL('../../../schema/rsapi.config.schema.json', import.meta.url);
  // RSAPI_UPDATE_SCHEMA=1 writes the file from src/cli/manual/schema.ts (after a check id is added).
  if (process.env.RSAPI_UPDATE_SCHEMA === '1') writeFileSync(file, assertionsSchemaText());
  const schema = JSON.parse(readFileSync(file, 'utf8'));

  it('is the schema src/cli/manual/schema.ts makes (RSAPI_UPDATE_SCHEMA=1 rewrites it)', () => {
    expect(readFileSync(file, 'utf8')).toBe(assertionsSchemaText());
  });

  const rule = schema.$defs.rule;

  it('completes every check id of src/api/model/checks.ts, and no other', () => {
    expect(Object.keys(rule.properties.checks.properties).sort()).toEqual([...CHECK_IDS].sort());
    expect(rule.properties.checks.additionalProperties).toBe(false);
  });

  it('has the levels, importances, results and keys the reader takes', () => {
    expect(schema.$defs.level.enum).toEqual([...LEVELS]);
    expect(Object.keys(rule.properties.importance.properties)).toEqual([...IMPORTANCES]);
    expect(rule.properties.result.enum).toEqual([...RESULTS]);
    expect(Object.keys(rule.properties).sort()).toEqual([...RULE_KEYS].sort());
    expect(Object.keys(schema.properties).sort()).toEqual([...FILE_KEYS].sort());
  });

  it('each check id carries its name in words, for the editor to show', () => {
    expect(rule.properties.checks.properties.htst.description).toBe('HSTS');
  });
});
