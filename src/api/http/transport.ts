// The connection pool: undici, loaded on the first request, and the one call the HTTP client makes of it.
import type { Dispatcher } from 'undici';
import { proxyConfigured, proxyFromEnv, type ProxySettings } from './proxy.js';

/**
 * undici is the heaviest dependency, so it is loaded on the first request only. Without a proxy,
 * only the parts used (agent, request API: one import, so one chunk): half the cost of its index. A proxy agent
 * needs the whole package (it relies on methods the index adds to every dispatcher).
 * One pool per origin, kept alive across requests and pages.
 */
export async function createSender(proxy: ProxySettings = proxyFromEnv(process.env)): Promise<Sender> {
  const options = { keepAliveTimeout: 10_000, connect: { timeout: 10_000 } };
  if (proxyConfigured(proxy)) {
    const imported = await import('undici');
    // undici is CommonJS: bundled, its exports arrive on `default`.
    const undici = (imported as unknown as { default?: typeof imported }).default ?? imported;
    // Empty rather than undefined: undici falls back to process.env for what is not given.
    const dispatcher = new undici.EnvHttpProxyAgent({
      ...options,
      httpProxy: proxy.httpProxy ?? '',
      httpsProxy: proxy.httpsProxy ?? '',
      noProxy: proxy.noProxy ?? '',
    });
    return { request: (opts) => dispatcher.request(opts), close: () => dispatcher.close() };
  }
  const { Agent, request } = await import('./undici-parts.js');
  const dispatcher = new Agent(options);
  return { request: (opts) => request.call(dispatcher, opts), close: () => dispatcher.close() };
}

/** What the client needs of undici: send a request on the pool, close the pool. */
export interface Sender {
  request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  close(): Promise<void>;
}

/**
 * Stops reading a body and frees its connection. undici's body emits an AbortError when destroyed unread: with no
 * listener that would be an uncaught exception, so one is attached first.
 */
export function discardBody(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => {});
  response.body.destroy();
}
