// Names that say which verb they belong to: a verb's plan and run are `plan<Noun><Verb>` and `run<Noun><Verb>` (the run
// takes `plan`), or a verb without a plan has `<noun><Verb>Run` (taking `opts`); its options are `<Noun><Verb>Options`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const COMMANDS = join(import.meta.dirname, '../../src/cli/commands');

const files = readdirSync(COMMANDS, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.ts'))
  .map((path) => relative(COMMANDS, join(COMMANDS, path)));

/** A verb with parts of its own is a folder of its name: `reports/create/create.ts` is the verb `reports/create.ts`. */
const verbFile = (path: string) => path.replace(/(^|\/)([^/]+)\/\2\.ts$/, '$1$2.ts');
const verbFolders = files.filter((path) => verbFile(path) !== path).map((path) => `${verbFile(path).replace(/\.ts$/, '')}/`);

/** Every command module: `reports/list.ts`, `api.ts` (`api/api.ts`); not the parts in a verb's folder. */
const modules = files
  .filter((path) => verbFile(path) !== path || !verbFolders.some((folder) => path.startsWith(folder)))
  .map((path) => ({ path: verbFile(path), text: readFileSync(join(COMMANDS, path), 'utf8') }));

/** `reports/list.ts` -> `reportsList`; `mock-server.ts` -> `mockServer`. */
function verbName(path: string): string {
  const words = path.replace(/\.ts$/, '').split(/[/-]/);
  return words.map((word, i) => (i === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join('');
}

const capital = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

describe('the names of verbs', () => {
  const runs = modules.flatMap(({ path, text }) =>
    [...text.matchAll(/^export async function (\w+Run|run[A-Z]\w*)\(/gm)].map((match) => ({ path, name: match[1]! })),
  );
  const plans = modules.flatMap(({ path, text }) => [...text.matchAll(/^export function (plan[A-Z]\w*)\(/gm)].map((match) => ({ path, name: match[1]! })));
  const optionTypes = modules.flatMap(({ path, text }) =>
    [...text.matchAll(/^export (?:type|interface) (\w+Options)\b/gm)].map((match) => ({ path, name: match[1]! })),
  );

  it('names each run and plan after its noun and verb', () => {
    expect(runs.length).toBeGreaterThan(25);
    expect(plans.length).toBeGreaterThan(10);
    for (const { path, name } of runs) expect([`${verbName(path)}Run`, `run${capital(verbName(path))}`], path).toContain(name);
    for (const { path, name } of plans) expect(name, path).toBe(`plan${capital(verbName(path))}`);
  });

  it('names each options type after its noun and verb', () => {
    expect(optionTypes.length).toBeGreaterThan(8);
    for (const { path, name } of optionTypes) expect(name, path).toBe(`${capital(verbName(path))}Options`);
  });

  it("calls a run's options `opts` and a planned run's parameter `plan` everywhere", () => {
    const parameters = modules.flatMap(({ path, text }) =>
      [...text.matchAll(/^export async function (\w+Run|run[A-Z]\w*)\(ctx: CommandContext, (\w+|\{)/gm)].map((match) => ({
        path,
        planned: match[1]!.startsWith('run'),
        name: match[2]!,
      })),
    );
    expect(parameters.length).toBeGreaterThan(25);
    for (const { path, planned, name } of parameters) expect(planned ? ['plan'] : ['opts', '{'], path).toContain(name);
  });
});
