// The URLs of a create's input: a refusal of bad lines names at most 20 of them, each cut to 80 characters, so a file
// of secrets given as a URL file (a .env) is never printed whole into a CI's log.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUrlInput, rejectInvalid } from '../../../../../src/cli/commands/reports/create/url-input.js';
import { UsageError } from '../../../../../src/cli/runtime/errors.js';
import { scratchMaker } from '../../../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-url-input-');
/** No input is read from standard input here: the terminal is never used. */
const io = {} as Parameters<typeof readUrlInput>[0];

describe('rejectInvalid', () => {
  it('names the first 20 bad lines, each cut to 80 characters, then how many more', async () => {
    const path = join(scratch(), '.env');
    const secret = (n: number) => `SECRET_${n}=${'x'.repeat(90)}TAIL${n}`;
    writeFileSync(path, `https://ok.example/\n${Array.from({ length: 30 }, (_, n) => secret(n)).join('\n')}\n`);
    const input = await readUrlInput(io, [], path);
    let error: UsageError | undefined;
    try {
      rejectInvalid(input, false, () => {});
    } catch (thrown) {
      error = thrown as UsageError;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(error?.message).toBe('30 input lines are not a URL a service would accept; nothing was sent:');
    const lines = error?.lines ?? [];
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe(`  ${path}:2: ${JSON.stringify(secret(0).slice(0, 80))}… is not an absolute URL (no http:// or https://)`);
    expect(lines[20]).toBe('  … and 10 more');
    expect(lines.join('\n')).not.toMatch(/TAIL|SECRET_2[0-9]/);
  });

  it('with --skip-invalid, the note is cut the same way', async () => {
    const input = await readUrlInput(io, ['x'.repeat(500), 'https://ok.example/'], undefined);
    const notes: string[] = [];
    rejectInvalid(input, true, (line) => notes.push(line));
    expect(notes).toEqual([`rsapi: skipping 1 invalid URL:\n  argument 1: "${'x'.repeat(80)}"… is not an absolute URL (no http:// or https://)`]);
  });
});
