// Each invocation's secrets: its own, registered as they are learnt, scrubbed from stdout, stderr and files alike.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createInvocation, run } from '../../../src/cli/program.js';
import { escapeHtml, jsonForScript, markdownText, xmlAttribute, xmlText } from '../../../src/output/escape.js';
import { Secrets } from '../../../src/cli/runtime/secrets.js';
import { csvLine } from '../../../src/output/csv.js';
import { tsvLine } from '../../../src/output/tsv.js';
import { oneLineForStderr } from '../../../src/cli/terminal/stderr.js';
import { testTerminal } from '../../helpers/run.js';

describe('Secrets', () => {
  it('two invocations in one process keep their secrets apart', async () => {
    const first = testTerminal({});
    const second = testTerminal({});
    try {
      const one = createInvocation({ terminal: first.terminal, signal: new AbortController().signal });
      const two = createInvocation({ terminal: second.terminal, signal: new AbortController().signal });
      const codes = await Promise.all([
        run(['config', 'path', '--api-key', 'key-of-the-first-0123'], one),
        run(['config', 'path', '--api-key', 'key-of-the-second-4567'], two),
      ]);
      expect(codes).toEqual([0, 0]);
      expect(one.secrets.has('key-of-the-first-0123')).toBe(true);
      expect(two.secrets.has('key-of-the-second-4567')).toBe(true);
      expect(one.secrets.has('key-of-the-second-4567')).toBe(false);
      expect(two.secrets.has('key-of-the-first-0123')).toBe(false);
      // What the one knows, the other prints as it is (it is not a secret of that run).
      one.io.stdout.write('key-of-the-first-0123 key-of-the-second-4567\n');
      expect(first.stdout.text).toContain('*** key-of-the-second-4567');
    } finally {
      first.cleanup();
      second.cleanup();
    }
  });

  it('redacts a secret on stderr after its control characters were escaped', () => {
    const secrets = new Secrets();
    secrets.register('pass\u0007word\nline');
    const chunks: string[] = [];
    const stderr = secrets.redactedSink({ write: (chunk: string) => chunks.push(chunk) });
    stderr.write(`rsapi: ${oneLineForStderr('refused: pass\u0007word\nline here')}\n`);
    expect(chunks).toEqual(['rsapi: refused: *** here\n']);
  });

  it('knows a secret in every form an output encodes it: json, xml, html, markdown, csv, tsv, a URL', () => {
    const secrets = new Secrets();
    const key = `Zq9<s3cr&t"key\\x'>|é`;
    secrets.register(key);
    const forms = [
      JSON.stringify({ url: key }),
      jsonForScript({ url: key }),
      `<testcase name="${xmlAttribute(key)}">${xmlText(key)}</testcase>`,
      `<td>${escapeHtml(key)}</td>`,
      `| ${markdownText(key)} |`,
      csvLine(['7', key]),
      tsvLine(['7', key]),
      new URL(`https://e.com/${key}`).href,
    ];
    for (const form of forms) expect(secrets.redact(form), form).not.toContain('s3cr');
    expect(secrets.redact(JSON.stringify({ url: key }))).toBe('{"url":"***"}');
  });

  it('ignores values too short to be secrets', () => {
    const secrets = new Secrets();
    secrets.register('abc');
    secrets.register(undefined);
    expect(secrets.redact('abc abcd')).toBe('abc abcd');
  });
});

// stdout's redacting sink: known secrets never pass, and backpressure ('drain') still reaches the writers that wait for it.
describe('redactedSink', () => {
  it("redacts every chunk and passes a full stream's false and its drain event through", async () => {
    const secrets = new Secrets();
    secrets.register('sink-secret-7788');
    const written: string[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      highWaterMark: 4,
      decodeStrings: false,
      write(chunk: string, _encoding, callback) {
        written.push(chunk);
        release = () => callback();
      },
    });
    const sink = secrets.redactedSink(slow);
    expect(sink.write('key sink-secret-7788 here')).toBe(false);
    const drained = new Promise<void>((resolve) => sink.once('drain', resolve));
    release!();
    await drained;
    expect(written).toEqual(['key *** here']);
  });

  it('is a plain sink for a target without events', () => {
    const chunks: string[] = [];
    const sink: { write(chunk: string): unknown; once?: unknown } = new Secrets().redactedSink({ write: (chunk: string) => chunks.push(chunk) });
    sink.write('x');
    expect(sink.once).toBeUndefined();
    expect(chunks).toEqual(['x']);
  });
});
