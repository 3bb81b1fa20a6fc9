// `npm run demo`: starts the bundled mock service, runs real rsapi commands against it, stops it.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/rsapi', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'rsapi-demo-'));

const mock = spawn(process.execPath, [bin, 'mock-server', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const banner = await new Promise((resolve, reject) => {
  let text = '';
  mock.stdout.setEncoding('utf8').on('data', (chunk) => {
    text += chunk;
    if (/API key: \S+/.test(text)) resolve(text);
  });
  mock.on('exit', (code) => reject(new Error(`the mock service exited (${code})`)));
});
const baseUrl = /listening on (\S+)/.exec(banner)[1];
const apiKey = /API key: (\S+)/.exec(banner)[1];
process.stdout.write(banner.replace(/^try:.*\n?/m, ''));

const env = { ...process.env, RSAPI_BASE_URL: baseUrl, RSAPI_API_KEY: apiKey, RSAPI_CONFIG_DIR: configDir };
const steps = [
  ['reports', 'list', '--result', 'bad', '-o', 'table'],
  ['reports', 'show', '3', '-o', 'table'],
  ['reports', 'create', 'https://example.com/new-landing-page', '-o', 'table'],
  ['projects', 'list', '-o', 'table'],
  ['reports', 'list', '--project', 'example.com', '--limit', '3', '--fields', 'id,url,score', '-o', 'csv'],
  ['reports', 'list', '--project', 'example.com', '--all', '--fail-on', 'bad', '-q'],
];
try {
  for (const args of steps) {
    process.stdout.write(`\n$ rsapi ${args.join(' ')}\n`);
    const { status } = spawnSync(process.execPath, [bin, ...args], { env, stdio: 'inherit' });
    process.stdout.write(`(exit ${status})\n`);
  }
} finally {
  const exited = once(mock, 'exit');
  mock.kill('SIGINT');
  await exited;
  rmSync(configDir, { recursive: true, force: true });
}
