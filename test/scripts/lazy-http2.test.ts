// scripts/lazy-http2.mjs: the build's stand-in for node:http2 in undici's client-h2.js holds Node's own constants and
// loads the real module on any other use.
import { createRequire } from 'node:module';
import { constants } from 'node:http2';
import { describe, expect, it } from 'vitest';
import { HTTP2_CONSTANTS, LAZY_HTTP2_SOURCE } from '../../scripts/lazy-http2.mjs';

/** The stand-in as the bundle runs it (CommonJS), with a require that counts what it loads. */
function standIn(): { exports: Record<string, unknown>; loaded: string[] } {
  const loaded: string[] = [];
  const real = createRequire(import.meta.url);
  const require = (name: string) => {
    loaded.push(name);
    return real(name);
  };
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'require', LAZY_HTTP2_SOURCE)(module, require);
  return { exports: module.exports, loaded };
}

describe('the lazy node:http2 of the build', () => {
  it("holds each constant undici reads while it loads at node:http2's own value", () => {
    for (const [name, value] of Object.entries(HTTP2_CONSTANTS)) expect([name, value]).toEqual([name, constants[name as keyof typeof constants]]);
  });

  it('gives those constants without loading node:http2, and anything else from it', () => {
    const { exports, loaded } = standIn();
    const { HTTP2_HEADER_PATH, NGHTTP2_CANCEL } = exports.constants as Record<string, unknown>;
    expect([HTTP2_HEADER_PATH, NGHTTP2_CANCEL]).toEqual([':path', 8]);
    expect(loaded).toEqual([]);
    expect(exports.connect).toBe(createRequire(import.meta.url)('node:http2').connect);
    expect(loaded).toEqual(['node:http2']);
    const other = standIn();
    expect((other.exports.constants as Record<string, unknown>).HTTP2_METHOD_GET).toBe('GET');
    expect(other.loaded).toEqual(['node:http2']);
  });
});
