// Where the stored settings live: RSAPI_CONFIG_DIR, else the user's config directory.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CONFIG_FILE_NAME = 'config.json';

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RSAPI_CONFIG_DIR) return env.RSAPI_CONFIG_DIR;
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'rsapi');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'rsapi');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'rsapi');
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), CONFIG_FILE_NAME);
}
