// `rsapi reports create URL...`: checks every URL first, then creates one report per distinct URL.
import type { Command } from 'commander';
import { ExitCode, RsapiError, type ExitCodeValue } from '../../../api/errors.js';
import { createListWriter, writeRecord } from '../../../output/index.js';
import { Gate } from '../../gates.js';
import { handle } from '../../handler.js';
import { finishGate } from '../../listing.js';
import { addGateOptions, type GateOptions } from '../../options.js';
import { addPrivacyOptions, resolvePassword, type PrivacyFlags } from '../../report-flags.js';
import { readUrlInput, rejectInvalid } from '../../url-input.js';
import { UsageError } from '../../../api/errors.js';

interface CreateFlags extends PrivacyFlags, GateOptions {
  fromFile?: string;
  skipInvalid?: boolean;
}

export function registerCreate(reports: Command): void {
  const command = reports
    .command('create')
    .description('Create a report for each URL (the service fetches and audits each page)')
    .argument('[urls...]', 'absolute http(s) URLs')
    .option('--from-file <path>', 'read URLs from a file, one a line (- for stdin); blank lines and # comments skipped')
    .option('--skip-invalid', 'skip input lines that are not URLs instead of stopping');
  addPrivacyOptions(command);
  addGateOptions(command);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports create https://example.com/
  $ rsapi reports create https://example.com/ https://example.com/pricing --json
  $ rsapi reports create --from-file urls.txt -o ndjson
  $ printf '%s\\n' "$PASS" | rsapi reports create https://example.com/ --privacy password --password-stdin
  $ rsapi reports create https://example.com/ --fail-on bad     # CI gate`,
  );
  handle(command, async (ctx, self) => {
    const flags = self.opts<CreateFlags>();
    if (flags.passwordStdin && flags.fromFile === '-') {
      throw new UsageError('--password-stdin and --from-file - both want standard input', { hint: 'use --password-file PATH' });
    }
    const input = await readUrlInput(ctx.io, self.args, flags.fromFile);
    rejectInvalid(input, flags.skipInvalid === true, (line) => ctx.note(line));
    if (input.urls.length === 0) throw new UsageError('no URL to create a report for', { hint: 'give URLs as arguments or with --from-file' });
    for (const duplicate of new Set(input.duplicates)) ctx.note(`rsapi: ${duplicate} given more than once; creating it once`);
    const password = await resolvePassword(ctx.io, flags, { required: true });
    const client = ctx.client();
    const options = ctx.outputOptions('report');
    const gate = new Gate(flags);
    const single = input.urls.length === 1;
    const writer = single ? undefined : createListWriter(ctx.io.stdout, options);
    let failure: ExitCodeValue | undefined;
    for (const url of input.urls) {
      try {
        const { report, recovered } = await client.reports.create({ url, privacy: flags.privacy, password });
        if (recovered) ctx.note(`rsapi: ${url}: the answer was lost, but the report was created (found it by URL)`);
        gate.check(report);
        if (writer) await writer.write(report);
        else await writeRecord(ctx.io.stdout, report, options);
      } catch (error) {
        if (!(error instanceof RsapiError) || error.exitCode === ExitCode.interrupted) throw error;
        if (single) throw error;
        ctx.note(`rsapi: ${url}: ${error.message}`);
        failure ??= error.exitCode;
      }
    }
    await writer?.end();
    const gateCode = finishGate(ctx, gate);
    return failure ?? gateCode;
  });
}
