import { describe, expect, it } from 'vitest';
import { decodeBody, decodePage, decodeRecord, errorForStatus, fieldErrors, redirectError, serviceMessage } from '../../../src/api/http/decode.js';
import { ApiError, AuthError, NotFoundError, ServerError, ValidationError } from '../../../src/api/errors.js';
import { ExitCode, exitCodeOf, hintOf } from '../../../src/cli/runtime/exit-codes.js';

const LIST = { method: 'GET', path: '/reports' };
const SHOW = { method: 'GET', path: '/reports/12' };

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('decodeBody', () => {
  it('parses JSON whatever the Content-Type says', () => {
    expect(decodeBody('{"data":{"id":1}}', 200, SHOW, 'text/html').value).toEqual({ data: { id: 1 } });
    expect(decodeBody('[1,2]', 200, LIST, '').value).toEqual([1, 2]);
  });

  it('takes an empty or blank body as no value', () => {
    expect(decodeBody('', 204, SHOW, '')).toEqual({ value: undefined, isHtml: false });
    expect(decodeBody('  \n', 200, SHOW, 'application/json')).toEqual({ value: undefined, isHtml: false });
  });

  it('turns an HTML page with a success status into a ServerError that says HTML', () => {
    const error = thrown(() => decodeBody('<!doctype html><html><body>Login</body></html>', 200, LIST, 'text/html; charset=UTF-8'));
    expect(error).toBeInstanceOf(ServerError);
    expect(exitCodeOf(error)).toBe(ExitCode.server);
    expect((error as ServerError).message).toMatch(/HTML/);
    expect(hintOf(error)).toMatch(/base URL/);
  });

  it('recognises HTML by its first character when the Content-Type is wrong', () => {
    const error = thrown(() => decodeBody('  <html>maintenance</html>', 200, LIST, 'application/json'));
    expect((error as ServerError).message).toMatch(/HTML/);
  });

  it('turns truncated JSON with a success status into a ServerError, not a SyntaxError', () => {
    const error = thrown(() => decodeBody('{"data": [{"id": 1, "url": "https://exa', 200, LIST, 'application/json'));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).message).toMatch(/not valid JSON/);
    expect((error as ServerError).message).not.toMatch(/HTML/);
    expect((error as ServerError).status).toBe(200);
    expect((error as ServerError).cause).toBeInstanceOf(SyntaxError);
  });

  it('keeps a non-JSON error body as no value, noting whether it was HTML', () => {
    expect(decodeBody('<html>Bad Gateway</html>', 502, LIST, 'text/html')).toEqual({ value: undefined, isHtml: true });
    expect(decodeBody('upstream timed out', 504, LIST, 'text/plain')).toEqual({ value: undefined, isHtml: false });
  });
});

describe('decodeRecord', () => {
  const record = { id: 12, url: 'https://example.com/', score: 71 };

  it('unwraps a record in `data`', () => {
    expect(decodeRecord({ data: record }, SHOW)).toEqual(record);
  });

  it('takes a bare record as it is', () => {
    expect(decodeRecord(record, SHOW)).toEqual(record);
  });

  it('keeps unknown fields and numbers as strings untouched', () => {
    const odd = { id: '12', score: '71', privacy: '2', audit: { lcp: 1.2 }, tags: ['a'], generated_at: null };
    const decoded = decodeRecord({ data: odd, status: 200 }, SHOW);
    expect(decoded).toEqual(odd);
    expect(decoded.score).toBe('71');
  });

  it('accepts a record with known fields missing', () => {
    expect(decodeRecord({ data: { id: 3 } }, SHOW)).toEqual({ id: 3 });
  });

  it('keeps a bare record whose own `data` field is not an object', () => {
    expect(decodeRecord({ id: 4, data: 'x' }, SHOW)).toEqual({ id: 4, data: 'x' });
  });

  it.each([
    ['data null', { data: null }],
    ['data a string', { data: 'oops' }],
    ['a list page', { data: [{ id: 1 }], links: { next: null }, meta: { current_page: 1 } }],
  ])('refuses an envelope that does not hold one record (%s)', (_name, body) => {
    expect(() => decodeRecord(body, SHOW)).toThrow(ServerError);
  });

  it.each([
    ['no body', undefined],
    ['null', null],
    ['an array', [record]],
    ['a string', 'ok'],
    ['a number', 12],
  ])('answers %s with a ServerError (exit 8)', (_name, body) => {
    const error = thrown(() => decodeRecord(body, SHOW));
    expect(error).toBeInstanceOf(ServerError);
    expect(exitCodeOf(error)).toBe(ExitCode.server);
  });
});

describe('decodePage', () => {
  const rows = (count: number, from = 1) => Array.from({ length: count }, (_, index) => ({ id: from + index }));

  it('reads a length-aware page: records, totals, next page from links.next', () => {
    const page = decodePage(
      {
        data: rows(10),
        links: { first: 'https://h/api/v1/reports?page=1', last: 'https://h/api/v1/reports?page=7', prev: null, next: 'https://h/api/v1/reports?page=2' },
        meta: { current_page: 1, from: 1, last_page: 7, path: 'https://h/api/v1/reports', per_page: 10, to: 10, total: 63 },
      },
      1,
      10,
      LIST,
    );
    expect(page).toEqual({ records: rows(10), page: 1, nextPage: 2, total: 63, lastPage: 7, request: LIST });
  });

  it('ends a length-aware list when links.next is null', () => {
    const page = decodePage({ data: rows(3, 61), links: { next: null }, meta: { current_page: 7, last_page: 7, total: 63 } }, 7, 10, LIST);
    expect(page.nextPage).toBeUndefined();
    expect(page.page).toBe(7);
  });

  it('reads a simple page (no total, no last page)', () => {
    const page = decodePage(
      { data: rows(10), links: { first: '/reports?page=1', prev: null, next: '/reports?per_page=10&page=3' }, meta: { current_page: 2, per_page: 10 } },
      2,
      10,
      LIST,
    );
    expect(page).toEqual({ records: rows(10), page: 2, nextPage: 3, total: undefined, lastPage: undefined, request: LIST });
  });

  it('takes meta numbers given as strings', () => {
    const page = decodePage({ data: rows(10), meta: { current_page: '2', last_page: '7', total: '63' } }, 2, 10, LIST);
    expect(page).toMatchObject({ page: 2, nextPage: 3, total: 63, lastPage: 7 });
  });

  it('reads a flat Laravel paginator (meta at the top level, next_page_url)', () => {
    const page = decodePage({ data: rows(10), current_page: 1, last_page: 2, total: 12, next_page_url: 'https://h/api/v1/reports?page=2' }, 1, 10, LIST);
    expect(page).toMatchObject({ page: 1, nextPage: 2, total: 12, lastPage: 2 });
    const last = decodePage({ data: rows(2), current_page: 2, last_page: 2, total: 12, next_page_url: null }, 2, 10, LIST);
    expect(last.nextPage).toBeUndefined();
  });

  it('uses the page number of links.next, never its host', () => {
    const page = decodePage({ data: rows(10), links: { next: 'http://other.example/x?foo=1&page=5' } }, 4, 10, LIST);
    expect(page.nextPage).toBe(5);
  });

  it('counts on current page + 1 when links.next carries no page number', () => {
    const page = decodePage({ data: rows(10), links: { next: 'https://h/api/v1/reports?cursor=abc' }, meta: { current_page: 3 } }, 3, 10, LIST);
    expect(page.nextPage).toBe(4);
  });

  it('guesses from the page size when only data is there', () => {
    expect(decodePage({ data: rows(10) }, 1, 10, LIST).nextPage).toBe(2);
    expect(decodePage({ data: rows(9) }, 1, 10, LIST).nextPage).toBeUndefined();
  });

  it('reads a bare array, guessing the next page from the page size asked for', () => {
    expect(decodePage(rows(25), 2, 25, LIST)).toEqual({ records: rows(25), page: 2, nextPage: 3, bare: true, request: LIST });
    expect(decodePage(rows(24), 2, 25, LIST).nextPage).toBeUndefined();
    expect(decodePage([], 1, 10, LIST)).toEqual({ records: [], page: 1, nextPage: undefined, bare: true, request: LIST });
  });

  it('takes a bare array longer than the page asked for as the whole list (a service that does not page)', () => {
    expect(decodePage(rows(26), 1, 25, LIST).nextPage).toBeUndefined();
  });

  it('drops entries that are not records, and keeps records untouched', () => {
    const record = { id: '7', score: '71', extra: { nested: true } };
    expect(decodePage([record, null, 3, 'x', [1]], 1, 10, LIST).records).toEqual([record]);
    expect(decodePage({ data: [record, null] }, 1, 10, LIST).records).toEqual([record]);
  });

  it.each([
    ['no body', undefined],
    ['a record', { data: { id: 1 } }],
    ['an object without data', { items: [] }],
    ['a string', 'ok'],
  ])('answers %s with a ServerError (exit 8)', (_name, body) => {
    const error = thrown(() => decodePage(body, 1, 10, LIST));
    expect(error).toBeInstanceOf(ServerError);
    expect(exitCodeOf(error)).toBe(ExitCode.server);
  });
});

describe('serviceMessage', () => {
  it('reads a non-empty `message`', () => {
    expect(serviceMessage({ message: ' Unauthenticated. ' })).toBe('Unauthenticated.');
  });

  it.each([[undefined], [{ message: '' }], [{ message: null }], [{ message: {} }], [{ message: [' '] }], [{ error: 'x' }], ['text']])(
    'has none in %j',
    (body) => {
      expect(serviceMessage(body)).toBeUndefined();
    },
  );

  it.each([
    [{ message: 42 }, '42'],
    [{ message: ['First.', 'Second.'] }, 'First.; Second.'],
    [{ message: { url: ['The url must be a valid URL.'] }, status: 422 }, 'url: The url must be a valid URL.'],
    [{ message: { url: ['A.', 'B.'], privacy: 'C.' } }, 'url: A. (and 2 more errors)'],
    [{ message: { url: { nested: ['Deep.'] } } }, 'url: Deep.'],
  ])('reads a message that is not a string, never as [object Object]: %j', (body, expected) => {
    expect(serviceMessage(body)).toBe(expected);
  });
});

describe('errorForStatus', () => {
  it.each([
    [401, AuthError, ExitCode.auth],
    [403, AuthError, ExitCode.auth],
    [404, NotFoundError, ExitCode.notFound],
    [422, ValidationError, ExitCode.validation],
    [400, ValidationError, ExitCode.validation],
    [500, ServerError, ExitCode.server],
    [502, ServerError, ExitCode.server],
    [503, ServerError, ExitCode.server],
  ] as const)('%i -> %s, exit %i', (status, type, code) => {
    const error = errorForStatus(status, SHOW, { message: 'why' }, false, 'why');
    expect(error).toBeInstanceOf(type);
    expect(exitCodeOf(error)).toBe(code);
    expect(error.status).toBe(status);
    expect(error.message).toContain(`HTTP ${status}`);
    expect(error.message).toContain('GET /reports/12');
    expect(error.message).toContain('why');
  });

  it('lists a validation failure per field', () => {
    const body = { message: 'The url field is required.', errors: { url: ['The url field is required.'], privacy: 'The selected privacy is invalid.' } };
    const error = errorForStatus(422, LIST, body, false, serviceMessage(body)) as ValidationError;
    expect(error.fields).toEqual({ url: ['The url field is required.'], privacy: ['The selected privacy is invalid.'] });
  });

  it.each([405, 409, 410, 413, 418, 451])('answers an unlisted 4xx (%i) with a plain ApiError, exit 5, keeping the message', (status) => {
    const error = errorForStatus(status, LIST, { message: 'No.' }, false, 'No.');
    expect(error.constructor).toBe(ApiError);
    expect(exitCodeOf(error)).toBe(ExitCode.validation);
    expect(error.message).toMatch(/^request refused: No\. \(HTTP \d+, GET/);
  });

  it('hints at the base URL when a 5xx body was HTML', () => {
    expect(hintOf(errorForStatus(502, LIST, undefined, true, undefined))).toMatch(/HTML.*base URL/);
    expect(hintOf(errorForStatus(502, LIST, undefined, false, undefined))).toBeUndefined();
  });

  it('hints at the list command on 404', () => {
    expect(hintOf(errorForStatus(404, SHOW, undefined, false, undefined))).toMatch(/rsapi reports list/);
    expect(hintOf(errorForStatus(404, { method: 'DELETE', path: '/projects/x' }, undefined, false, undefined))).toMatch(/rsapi projects list/);
  });

  it.each([
    ['a list, with a message', LIST, { message: 'Resource not found.', status: 404 }, true],
    ['a list, with no body', LIST, undefined, true],
    ['a list with a query', { method: 'GET', path: '/reports?page=2' }, { message: 'Resource not found.' }, true],
    ['another route', { method: 'GET', path: '/reports/12/extra' }, undefined, true],
    ["one record, Laravel 8's empty message", SHOW, { message: '' }, true],
    ['one record, a record message', SHOW, { message: 'Resource not found.', status: 404 }, false],
    ['one record, no body', SHOW, undefined, false],
  ] as const)('a 404 on %s: routeMissing %s, and the hint follows', (_name, request, body, missing) => {
    const error = errorForStatus(404, request, body, false, serviceMessage(body)) as NotFoundError;
    expect(error.routeMissing).toBe(missing);
    expect(hintOf(error)).toMatch(missing ? /check the base URL/ : /check the id/);
  });
});

describe('fieldErrors', () => {
  it("merges Laravel's `errors` and phpRank's `message` object, each message once, nested values flattened", () => {
    const body = { message: { url: ['A.', 'B.'], privacy: { 0: 'C.' } }, errors: { url: ['A.'] }, status: 422 };
    expect(fieldErrors(body)).toEqual({ url: ['A.', 'B.'], privacy: ['C.'] });
  });

  it('keeps a field named __proto__ as a field', () => {
    const fields = fieldErrors(JSON.parse('{"message":{"__proto__":["Odd."]}}'));
    expect(Object.keys(fields)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
  });

  it('has none for a string message or no body', () => {
    expect(fieldErrors({ message: 'The given data was invalid.' })).toEqual({});
    expect(fieldErrors(undefined)).toEqual({});
  });
});

describe('redirectError', () => {
  const BASE = 'https://rank.example.com/api/v1';
  it.each([
    ['to /login', 302, 'https://rank.example.com/login', false, AuthError],
    ['to a localised login, relative', 302, '/fr/login/', false, AuthError],
    ['a 302 with HTML elsewhere on the site', 302, '/dashboard', true, AuthError],
    ['a 302 with HTML to another host', 302, 'https://other.example/', true, ServerError],
    ['a 302 without HTML elsewhere on the site', 302, '/dashboard', false, ServerError],
    ['a 301 with HTML to the site root', 301, '/', true, ServerError],
    ['a 302 with HTML under the API', 302, '/api/v1/reports/', true, ServerError],
    ['no Location', 302, undefined, true, ServerError],
  ] as const)('%s -> %s', (_name, status, location, isHtml, type) => {
    const error = redirectError(status, LIST, location, BASE, isHtml);
    expect(error).toBeInstanceOf(type);
    expect(exitCodeOf(error)).toBe(type === AuthError ? ExitCode.auth : ExitCode.server);
  });
});
