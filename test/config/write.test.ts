// Reading settings costs no import of conf (the settings writer); only the first write loads it.
import { describe, expect, it, vi } from 'vitest';
import { LockFiles } from '../../src/config/lock-file.js';
import { tempHomePerTest } from '../helpers/settings.js';

/** How often `conf` was imported in this file (its own process: no other test loads it first). */
const confLoads = vi.hoisted(() => ({ count: 0 }));
vi.mock('conf', async (importOriginal) => {
  confLoads.count++;
  return importOriginal();
});

const home = tempHomePerTest('rsapi-home-', 'settings');

describe('start-up cost', () => {
  it('reading settings never loads conf; the first write does', async () => {
    const { resolveSettings } = await import('../../src/config/resolve.js');
    const { updateProfile } = await import('../../src/config/write.js');
    home.settings.write(JSON.stringify({ profiles: { default: { retries: 1 } } }));
    const settingsEnv = { RSAPI_CONFIG_DIR: home.settings.dir };
    expect(resolveSettings({}, settingsEnv).stored).toEqual({ retries: 1 });
    expect(confLoads.count).toBe(0);
    await updateProfile('default', (settings) => ({ ...settings, timeout: 3 }), settingsEnv, new LockFiles());
    expect(confLoads.count).toBe(1);
    expect(resolveSettings({}, settingsEnv).stored).toEqual({ retries: 1, timeout: 3 });
  });
});
