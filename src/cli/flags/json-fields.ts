// gh's `--json FIELDS` form: `--json id,url` is `--json --fields id,url`; a bare `--json` keeps meaning -o json.
import { UsageError } from '../../errors.js';

const FIELD = /^[a-z_][a-z0-9_]*$/i;

/**
 * Field names that a single word after --json is taken as (one with a comma is always a field list): the columns of
 * reports and projects. Any other word stays an argument (`reports show --json 42`, `rsapi --json reports list`).
 */
const KNOWN_FIELDS = new Set([
  'id',
  'url',
  'project',
  'result',
  'score',
  'privacy',
  'generated_at',
  'created_at',
  'updated_at',
  'average',
  'results',
  'failed_checks',
  'label',
]);

/** The top-level commands (command-index.ts), by name and alias: such a word after --json is the command, never a field. */
type Commands = readonly { name: string; aliases: readonly string[] }[];

function isFieldList(word: string, commands: Commands): boolean {
  if (commands.some((command) => command.name === word || command.aliases.includes(word))) return false;
  const names = word.split(',').map((name) => name.trim());
  if (!names.every((name) => FIELD.test(name))) return false;
  return names.length > 1 || KNOWN_FIELDS.has(word);
}

/** argv with every `--json FIELDS` / `--json=FIELDS` rewritten as `--json --fields FIELDS`; words after `--` untouched. */
export function expandJsonFields(argv: readonly string[], commands: Commands): string[] {
  const out: string[] = [];
  let fieldsGiven = argv.some((word) => word === '--fields' || word.startsWith('--fields='));
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index] as string;
    if (word === '--') {
      out.push(...argv.slice(index));
      break;
    }
    const next = argv[index + 1];
    const fields = word.startsWith('--json=')
      ? word.slice('--json='.length)
      : word === '--json' && next !== undefined && isFieldList(next, commands)
        ? next
        : undefined;
    if (fields === undefined) {
      out.push(word);
      continue;
    }
    if (fieldsGiven)
      throw new UsageError('the fields are given twice (--json FIELDS and --fields)', { hint: 'give them once: --json id,url or --json --fields id,url' });
    fieldsGiven = true;
    out.push('--json', '--fields', fields);
    if (word === '--json') index++;
  }
  return out;
}
