// The JSON Schema of the assertions file (schema/rsapi.config.schema.json in the package), made from the check ids,
// levels and keys the reader knows, so editors complete them; a test holds the shipped file equal to this.
import { CHECK_NAMES, IMPORTANCES } from '../../api/model/checks.js';
import { RESULTS } from '../../api/model/report-model.js';
import { LEVELS } from './rules.js';

export function assertionsSchema(): Record<string, unknown> {
  const level = { $ref: '#/$defs/level' };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rsapi.dev/schema/rsapi.config.schema.json',
    title: 'rsapi assertions (rsapi.config.json)',
    description:
      'Rules that `rsapi reports list|create|stats --assert` judges every report by. Every rule whose glob matches applies; a later one wins per key.',
    type: 'object',
    properties: {
      $schema: { type: 'string' },
      assert: { type: 'array', items: { $ref: '#/$defs/rule' }, minItems: 1 },
    },
    required: ['assert'],
    additionalProperties: false,
    $defs: {
      level: {
        enum: [...LEVELS],
        description: 'error: fails the run (exit 10); warn: printed, does not fail; off: not judged',
      },
      rule: {
        type: 'object',
        properties: {
          match: {
            type: 'string',
            description: 'A glob over the report identity (the cleaned URL: example.com/blog/**); ** any path, * one segment. Default **',
            default: '**',
          },
          minScore: { type: 'number', minimum: 0, maximum: 100, description: 'Fail a report scoring below this' },
          result: { enum: [...RESULTS], description: 'The worst result that passes: decent fails a bad report' },
          checks: {
            type: 'object',
            description: 'A level per check id, for a failed check',
            properties: Object.fromEntries(Object.entries(CHECK_NAMES).map(([id, name]) => [id, { ...level, description: name }])),
            additionalProperties: false,
          },
          importance: {
            type: 'object',
            description: "A level for any failed check of this importance (a check's own level wins)",
            properties: Object.fromEntries(IMPORTANCES.map((importance) => [importance, level])),
            additionalProperties: false,
          },
        },
        // A rule asserts something (a match alone, or empty checks, is refused when the file is read).
        anyOf: ['minScore', 'result', 'checks', 'importance'].map((key) => ({ required: [key] })),
        additionalProperties: false,
      },
    },
  };
}

/** The file as shipped: two-space JSON and a final newline. */
export function assertionsSchemaText(): string {
  return `${JSON.stringify(assertionsSchema(), null, 2)}\n`;
}
