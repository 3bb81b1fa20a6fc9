// Where the stored settings live: RSAPI_CONFIG_DIR, else the user's config directory.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CONFIG_FILE_NAME = 'config.json';

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.RSAPI_CONFIG_DIR) return env.RSAPI_CONFIG_DIR;
  if (process.platform === 'win32') return join(env.APPDATA ?? join(env.USERPROFILE || homedir(), 'AppData', 'Roaming'), 'rsapi');
  // HOME of the given environment (the terminal's), not the process's: os.homedir() reads process.env.
  const home = env.HOME || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'rsapi');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'rsapi');
}

export function configPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), CONFIG_FILE_NAME);
}

/** Where rsapi keeps data of its own (the MCP server's create journals): $XDG_DATA_HOME/rsapi, else ~/.local/share/rsapi. */
export function dataDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share'), 'rsapi');
}
