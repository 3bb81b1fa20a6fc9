// The connection pool: undici, loaded on the first request, and the one call the HTTP client makes of it.
import type { Dispatcher } from 'undici';

/**
 * undici is the heaviest dependency, so it is loaded on the first request only. Without a proxy,
 * only the parts used (agent, request API): half the cost of its index. A proxy agent needs the
 * whole package (it relies on methods the index adds to every dispatcher).
 * One pool per origin, kept alive across requests and pages.
 */
export async function createSender(): Promise<Sender> {
  const options = { keepAliveTimeout: 10_000, connect: { timeout: 10_000 } };
  if (proxyConfigured()) {
    const imported = await import('undici');
    // undici is CommonJS: bundled, its exports arrive on `default`.
    const undici = (imported as unknown as { default?: typeof imported }).default ?? imported;
    const dispatcher = new undici.EnvHttpProxyAgent(options);
    return { request: (opts) => dispatcher.request(opts), close: () => dispatcher.close() };
  }
  const [{ default: request }, { default: Agent }] = await Promise.all([
    import('undici/lib/api/api-request.js'),
    import('undici/lib/dispatcher/agent.js'),
  ]);
  const dispatcher = new Agent(options);
  return { request: (opts) => request.call(dispatcher, opts), close: () => dispatcher.close() };
}

/** What the client needs of undici: send a request on the pool, close the pool. */
export interface Sender {
  request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  close(): Promise<void>;
}

/** Whether requests may go through a proxy (NO_PROXY may still exempt the service's host). */
export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}
