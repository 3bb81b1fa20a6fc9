// The error that ends a run: -v traces the requests and their answers but keeps stack traces for bugs; RSAPI_DEBUG=1 gives one always.
import { describe, expect, it } from 'vitest';
import { ServerError } from '../../../src/api/errors.js';
import { reportError } from '../../../src/cli/runtime/exit.js';
import { mockPerTest } from '../../helpers/mock.js';
import { runInProcess } from '../../helpers/run.js';

const mock = mockPerTest({ failRate: 1 });
/** A line of a JavaScript stack trace. */
const STACK_LINE = /^\s+at /m;

describe('stack traces', () => {
  it('-v on an ordinary 503 shows the request, its answer and its time, and no stack trace', async () => {
    const fixture = await mock();
    const result = await runInProcess({ argv: ['reports', 'list', '-v', '--retries', '0'], env: fixture.env });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/reports -> 503 in \d+ ms$/m);
    expect(result.stderr).toMatch(/^rsapi: .*503/m);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('RSAPI_DEBUG=1 on the same 503 adds the stack trace', async () => {
    const fixture = await mock();
    const result = await runInProcess({ argv: ['reports', 'list', '--retries', '0'], env: { ...fixture.env, RSAPI_DEBUG: '1' } });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(STACK_LINE);
  });

  it('-v on a bug (an error rsapi did not raise on purpose) shows its stack trace', () => {
    const written: string[] = [];
    const sink = { write: (text: string) => void written.push(text) };
    expect(reportError(new TypeError('cannot read properties of undefined'), sink, { debug: false, verbose: true })).toBe(1);
    expect(written.join('')).toMatch(/^rsapi: unexpected error: cannot read properties of undefined\nTypeError: .*\n\s+at /);
    written.length = 0;
    reportError(new ServerError('server error', { method: 'GET', path: '/reports' }, 503), sink, { debug: false, verbose: true });
    expect(written.join('')).not.toMatch(STACK_LINE);
  });
});
