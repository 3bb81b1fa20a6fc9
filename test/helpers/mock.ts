// Starting the bundled mock service in-process on a free loopback port, and the env that points rsapi at it.
import { afterAll, afterEach } from 'vitest';
import { startMockServer, type MockOptions, type MockServer } from '../../src/mock/server.js';
import { tempDir } from './cli.js';

export interface MockFixture {
  server: MockServer;
  /** RSAPI_BASE_URL, RSAPI_API_KEY and a temp RSAPI_CONFIG_DIR for this server. */
  env: Record<string, string>;
  configDir: string;
  close(): Promise<void>;
}

export async function startMock(options: MockOptions = {}): Promise<MockFixture> {
  const server = await startMockServer({ port: 0, ...options });
  const config = tempDir('rsapi-config-');
  return {
    server,
    configDir: config.path,
    env: { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: server.apiKey, RSAPI_CONFIG_DIR: config.path },
    async close() {
      await server.close();
      config.cleanup();
    },
  };
}

/**
 * For a test file whose tests each start their own mock: call at the top level; the returned `mock(options)` starts one
 * with `defaults` overlaid by `options`, and every mock started in a test is closed after it.
 */
export function mockPerTest(defaults: MockOptions = {}): (options?: MockOptions) => Promise<MockFixture> {
  return mocksClosedBy(afterEach, defaults);
}

/**
 * As mockPerTest, for a file whose tests run side by side (describe.concurrent): a test's end cannot close the mocks of
 * the others still running, so every mock started is closed when the file ends.
 */
export function mockPerFile(defaults: MockOptions = {}): (options?: MockOptions) => Promise<MockFixture> {
  return mocksClosedBy(afterAll, defaults);
}

function mocksClosedBy(hook: typeof afterEach, defaults: MockOptions): (options?: MockOptions) => Promise<MockFixture> {
  const fixtures: MockFixture[] = [];
  hook(async () => {
    await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
  });
  return async (options = {}) => {
    const fixture = await startMock({ ...defaults, ...options });
    fixtures.push(fixture);
    return fixture;
  };
}

/** How many reports the mock holds for each page (its URL as stored, without the scheme): one each, never two. */
export function reportsPerPage(service: MockFixture): Map<string, number> {
  const counts = new Map<string, number>();
  for (const report of service.server.reports()) counts.set(report.url, (counts.get(report.url) ?? 0) + 1);
  return counts;
}

/** How many creates (POSTs) the mock was sent. */
export function posts(service: MockFixture): number {
  return service.server.requests.filter((request) => request.method === 'POST').length;
}
