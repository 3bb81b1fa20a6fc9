// stdout's redacting sink: known secrets never pass, and backpressure ('drain') still reaches the writers that wait for it.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Secrets } from '../../src/cli/runtime/secrets.js';

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
