// The lines the MCP server takes (src/mcp/admission.ts): each request is admitted or answered with a short error.
import { describe, expect, it } from 'vitest';
import { admitLine } from '../../src/mcp/admission.js';

const call = (params: unknown, id: unknown = 7) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });

type Want = { id?: number | string; code: number; message: string | RegExp };

describe('admitLine', () => {
  it.each<[string, string, Want]>([
    ['a line that is not JSON', 'not json', { code: -32700, message: /^parse error: a line that is not JSON/ }],
    ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', { code: -32600, message: 'invalid request: a message is a JSON object, not a list' }],
    ['params that are a number', call(5), { id: 7, code: -32602, message: 'tools/call: params must be an object, not 5' }],
    ['params that are a list', call([1], 'a'), { id: 'a', code: -32602, message: 'tools/call: params must be an object, not a list' }],
    [
      'arguments that are text',
      call({ name: 'list_reports', arguments: 'x' }),
      { id: 7, code: -32602, message: 'tools/call: arguments must be an object, not "x"' },
    ],
    ['a name that is a number', call({ name: 5 }), { id: 7, code: -32602, message: 'tools/call: name must be text, not 5' }],
    ['a call without a name', call({}), { id: 7, code: -32602, message: 'tools/call: name is required (text)' }],
    [
      'a cursor that is a number',
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 5 } }),
      { id: 2, code: -32602, message: 'tools/list: cursor must be text, not 5' },
    ],
    ['no jsonrpc', JSON.stringify({ id: 3, method: 'ping' }), { id: 3, code: -32600, message: /^invalid request: not a JSON-RPC 2.0 message/ }],
    ['an id that is an object', call({ name: 'x' }, {}), { code: -32600, message: /^invalid request/ }],
  ])('answers %s with an error', (_name, line, want) => {
    const admitted = admitLine(line);
    expect('answer' in admitted).toBe(true);
    if (!('answer' in admitted)) return;
    const { id, error } = admitted.answer as { id?: unknown; error: { code: number; message: string } };
    expect(id).toBe(want.id);
    expect(error.code).toBe(want.code);
    if (want.message instanceof RegExp) expect(error.message).toMatch(want.message);
    else expect(error.message).toBe(want.message);
    expect(error.message.length).toBeLessThan(200);
  });

  it('admits a request whose params fit its method, and a method it does not know (the server answers -32601)', () => {
    expect(admitLine(call({ name: 'list_reports', arguments: { limit: 'x' } }))).toEqual({
      message: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_reports', arguments: { limit: 'x' } } },
    });
    expect(admitLine('{"jsonrpc":"2.0","id":1,"method":"resources/list"}')).toHaveProperty('message');
  });

  it('drops a broken notification (no answer is owed), saying why', () => {
    expect(admitLine('{"method":"notifications/initialized"}')).toEqual({ dropped: 'a notification notifications/initialized that is not JSON-RPC 2.0' });
  });
});
