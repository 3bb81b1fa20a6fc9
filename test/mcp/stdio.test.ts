// The MCP server's stdio lines (src/mcp/stdio.ts): split as they come, a line over the limit skipped with its id.
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { LineReader, LineTransport } from '../../src/mcp/stdio.js';

const read = (reader: LineReader, ...chunks: string[]) => chunks.flatMap((chunk) => reader.push(Buffer.from(chunk)));

describe('LineReader', () => {
  it('splits lines across chunks, a CR LF too, and gives the last line without its newline at the end', () => {
    const reader = new LineReader(100);
    expect(read(reader, '{"a":', '1}\r\n{"b"', ':2}\n{"c":3}')).toEqual([{ text: '{"a":1}' }, { text: '{"b":2}' }]);
    expect(reader.end()).toEqual([{ text: '{"c":3}' }]);
    expect(reader.end()).toEqual([]);
  });

  it('skips a line over the limit, holding only its ends, with the id its first or last field shows; the next line is read', () => {
    const reader = new LineReader(1_000);
    const big = 'x'.repeat(5_000);
    const sdk = `{"method":"tools/call","params":{"name":"t","arguments":{"v":"${big}","id":9}},"jsonrpc":"2.0","id":42}`;
    const first = `{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"v":"${big}"}}`;
    const none = `{"params":{"v":"${big}","id":3}}`;
    const lines = read(reader, sdk.slice(0, 700), sdk.slice(700), '\n', `${first}\n${none}\n{"ok":1}\n`);
    expect(lines).toEqual([
      { bytes: Buffer.byteLength(sdk), id: 42 },
      { bytes: Buffer.byteLength(first), id: 'a-1' },
      { bytes: Buffer.byteLength(none), id: undefined },
      { text: '{"ok":1}' },
    ]);
  });
});

describe('LineTransport', () => {
  it('answers what it cannot admit and hands on the rest, staying open', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new LineTransport(stdin, stdout, 200);
    const messages: unknown[] = [];
    transport.onmessage = (message) => messages.push(message);
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    let written = '';
    stdout.on('data', (chunk: Buffer) => {
      written += String(chunk);
    });
    await transport.start();
    stdin.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"v":"${'y'.repeat(300)}"}}\nnot json\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    // The answers are written as the lines are read: on some Node lines over more than one turn of the event loop.
    await vi.waitFor(() => {
      expect(written.split('\n').filter(Boolean)).toHaveLength(2);
      expect(messages).toHaveLength(1);
    });
    const answers = written
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id?: number; error: { code: number; message: string } });
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'invalid request: a message of 358 bytes is over the limit of 200 bytes; it was not read' } },
      { jsonrpc: '2.0', error: { code: -32700, message: expect.stringMatching(/^parse error: /) } },
    ]);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
    expect(closed).toBe(false);
  });
});
