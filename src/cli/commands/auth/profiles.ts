// `rsapi auth status --all`: every stored profile with its base URL, its key masked, and which one is active; no request.
import { withoutCredentials } from '../../../api/http/base-url.js';
import { maskKey } from '../../../config/keys.js';
import { profileOf, readStoredConfig, storedActiveProfile, storedProfileNames } from '../../../config/store.js';
import { createListWriter, type ServiceRecord } from '../../../output/index.js';
import { ListTable } from '../../../output/table/table.js';
import type { CommandContext } from '../../runtime/context.js';

const COLUMNS = ['active', 'profile', 'base_url', 'key'];

export async function printAllProfiles(ctx: CommandContext): Promise<void> {
  const env = ctx.io.env;
  const config = readStoredConfig(env);
  const names = storedProfileNames(config);
  const chosen = storedActiveProfile(config);
  const active = chosen ?? 'default';
  const inUse = ctx.globals.profile ?? env.RSAPI_PROFILE;
  const records: ServiceRecord[] = names.map((name) => {
    const settings = profileOf(config, name);
    return {
      profile: name,
      active: name === active,
      base_url: settings['base-url'] ? withoutCredentials(settings['base-url']) : null,
      key: settings['api-key'] ? maskKey(settings['api-key']) : null,
    };
  });
  if (records.length === 0) {
    ctx.note('no profile is stored yet; run `rsapi auth login` (add --profile NAME for another one)');
    return;
  }
  const options = ctx.outputOptions('project', 'tool');
  if (options.quiet) {
    for (const record of records) ctx.io.stdout.write(`${String(record.profile)}\n`);
  } else if (options.format === 'table') {
    const table = new ListTable(options.fields ?? COLUMNS);
    for (const record of records) table.add({ ...record, active: record.active ? '*' : '' });
    await table.draw(ctx.io.stdout, { kind: 'project', color: options.color, width: options.width, keep: new Set(['active', 'profile']) });
  } else {
    const writer = createListWriter(ctx.io.stdout, { ...options, fields: options.fields ?? ['profile', 'active', 'base_url', 'key'] });
    for (const record of records) await writer.write(record);
    await writer.end();
  }
  if (chosen && !names.includes(chosen)) ctx.note(`note: the active profile "${chosen}" is not stored`);
  if (inUse && inUse !== active) ctx.note(`note: ${ctx.globals.profile ? '--profile' : 'RSAPI_PROFILE'} ${inUse} is used instead of the active profile here`);
}
