// A Sink that keeps what it is given, chunk by chunk, for the renderer tests.
import type { Sink } from '../../src/output/index.js';

export class BufferSink implements Sink {
  readonly chunks: string[] = [];
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
  get text(): string {
    return this.chunks.join('');
  }
}
