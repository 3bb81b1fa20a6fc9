// Starting the bundled mock service in-process on a free loopback port, and the env that points rsapi at it.
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
