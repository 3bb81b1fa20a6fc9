// A Sink that keeps what it is given, chunk by chunk, for the renderer tests; and a whole list written into one.
import { createListWriter, type OutputOptions, type ServiceRecord, type Sink } from '../../src/output/index.js';

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

/** Writes `records` through a list writer, one after the other, and ends it: the sink holds the whole output. */
export async function writeList(records: ServiceRecord[], options: OutputOptions): Promise<BufferSink> {
  const out = new BufferSink();
  const writer = createListWriter(out, options);
  for (const record of records) await writer.write(record);
  await writer.end();
  return out;
}
