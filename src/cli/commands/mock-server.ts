// `rsapi mock-server`: the bundled in-memory stand-in for the service, for trying rsapi and testing scripts.
import { InvalidArgumentError, Option } from '@commander-js/extra-typings';
import type { CommandContext } from '../runtime/context.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../runtime/handler.js';
import { collectValues, integerParser } from '../flags/options.js';
import { FLAVOR_NAMES } from '../../mock/flavor-names.js';
import { UsageError } from '../../errors.js';
import type { MockOptions } from '../../mock/server.js';

// A blank value (Number(' ') is 0) never comes here: refuseEmptyValues (options.ts) refuses it for every flag first.
function rate(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0 || n > 1) {
      throw new InvalidArgumentError(`${name} must be a number from 0 to 1.`);
    }
    return n;
  };
}

/** `--redirect FROM=TO`, repeatable: collected into the map the mock follows. */
function redirectEntry(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const separator = value.indexOf('=');
  if (separator <= 0 || separator === value.length - 1) throw new InvalidArgumentError('--redirect takes FROM=TO, two URLs.');
  return { ...previous, [value.slice(0, separator)]: value.slice(separator + 1) };
}

function declareMockServer(program: ParentCommand) {
  return program
    .command('mock-server')
    .description('Run the bundled mock service on loopback (in memory, seeded, with optional faults)')
    .addOption(
      new Option('--flavor <flavor>', 'which service to play: seed (the API document) or phprank (the service as deployed)')
        .choices(FLAVOR_NAMES)
        .default('seed' as const),
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 = any free port)', integerParser('--port', 0, 65535), 8787)
    .option('--seed <n>', 'number of seeded reports', integerParser('--seed', 0, 100_000))
    .option('--latency <ms>', 'delay added to every request', integerParser('--latency', 0, 600_000))
    .option('--fail-rate <r>', 'fraction of requests answered 503 (0 to 1)', rate('--fail-rate'))
    .option(
      '--rate-limit <n>',
      'requests allowed a minute, past it 429 with Retry-After; 0 = no limit (default: none, phprank 60)',
      integerParser('--rate-limit', 0),
    )
    .option('--rate-limit-window <s>', 'the window --rate-limit counts in, in seconds (default 60)', integerParser('--rate-limit-window', 1, 3600))
    .addOption(new Option('--envelope <shape>', 'list response shape').choices(['length-aware', 'simple', 'bare', 'unpaged'] as const).default('length-aware'))
    .option('--drop-after-create <r>', 'fraction of creates stored and then left unanswered (connection dropped)', rate('--drop-after-create'))
    .option('--fail-after-create <r>', 'fraction of creates stored and then answered 503', rate('--fail-after-create'))
    .option('--stall-rate <r>', 'fraction of requests never answered', rate('--stall-rate'))
    .option(
      '--store-delay <ms>',
      'store each new report only this long after the create arrived (a slow audit), answering then',
      integerParser('--store-delay', 0, 600_000),
    )
    .option('--redirect <from=to>', 'phprank: the URL FROM redirects to TO, where the report is stored (repeatable)', redirectEntry)
    .option('--plan-without-api', "phprank: the key's plan has no API access (403 on every call)")
    .option(
      '--unreachable <host>',
      'a host whose pages the service cannot fetch: a create is refused with 422 on url (hosts under .invalid always are; repeatable)',
      collectValues,
    )
    .option('--drift <r>', "phprank: each re-audit flips about this share of a report's checks (0 to 1), its score following", rate('--drift'));
}

export type MockServerOptions = OptionsOf<ReturnType<typeof declareMockServer>>;

export function registerMockServer(program: ParentCommand, invocation: Invocation): void {
  const command = declareMockServer(program);
  command.addHelpText(
    'after',
    `
The key the mock accepts is --api-key (global flag), else a fixed demo key printed on start.

Examples:
  $ rsapi mock-server
  $ rsapi mock-server --port 0 --seed 200 --latency 50
  $ rsapi mock-server --fail-rate 0.1 --rate-limit 120 --envelope simple
  $ rsapi mock-server --store-delay 3000 --drop-after-create 0.2   # slow audits, lost answers
  $ rsapi mock-server --envelope unpaged                           # a service that does not page
  $ rsapi mock-server --flavor phprank                             # phpRank as deployed: numeric result, 36 checks
  $ rsapi mock-server --flavor phprank --store-delay 2000 --rate-limit 0
  $ rsapi mock-server --flavor phprank --redirect https://a.example/=https://b.example/home
  $ rsapi mock-server --flavor phprank --unreachable down.example   # 422 with cURL's message, as phpRank
  $ rsapi mock-server --flavor phprank --drift 0.1    # each re-audit flips about 10% of a report's checks

The phprank flavor stores URLs cleaned (no scheme, no www., no root slash) as the final URL: a path segment
"old" redirects to "new" (https://www.example.com/old/x is stored as example.com/new/x), and --redirect adds
others. It throttles at 60 requests a minute unless --rate-limit says otherwise.`,
  );
  handle(invocation, command, { plan: planMockServer, run: runMockServer });
}

/** The options only the phprank flavor plays: the seed flavor would take them and do nothing. */
function phpRankOnly(opts: MockServerOptions): string[] {
  const given = { '--redirect': opts.redirect, '--plan-without-api': opts.planWithoutApi, '--drift': opts.drift };
  return Object.entries(given).flatMap(([flag, value]) => (value === undefined ? [] : [flag]));
}

/** What `rsapi mock-server` runs: the mock service with these options (its key the --api-key given, else the demo key). */
export interface MockServerPlan {
  options: MockOptions;
}

/** Every check of `rsapi mock-server`: a phprank-only option given to the seed flavor is refused before anything listens. */
export function planMockServer(ctx: CommandContext, opts: MockServerOptions): MockServerPlan {
  const refused = opts.flavor === 'phprank' ? [] : phpRankOnly(opts);
  if (refused.length > 0)
    throw new UsageError(`${refused.join(', ')} ${refused.length === 1 ? 'is' : 'are'} only played by the phprank flavor: add --flavor phprank`);
  const options: MockOptions = {
    flavor: opts.flavor,
    host: opts.host,
    port: opts.port,
    apiKey: ctx.globals.apiKey,
    seed: opts.seed,
    latencyMs: opts.latency,
    failRate: opts.failRate,
    rateLimit: opts.rateLimit,
    rateLimitWindowMs: opts.rateLimitWindow === undefined ? undefined : opts.rateLimitWindow * 1000,
    envelope: opts.envelope,
    dropAfterCreate: opts.dropAfterCreate,
    failAfterCreate: opts.failAfterCreate,
    stallRate: opts.stallRate,
    storeDelayMs: opts.storeDelay,
    redirects: opts.redirect,
    planWithoutApi: opts.planWithoutApi,
    unreachable: opts.unreachable,
    drift: opts.drift,
  };
  return { options };
}

/** Runs the mock service on loopback until interrupted. */
export async function runMockServer(ctx: CommandContext, plan: MockServerPlan) {
  const { options } = plan;
  const { runMockServer: serveMock } = await import('../../mock/run.js');
  const { DEFAULT_MOCK_API_KEY } = await import('../../mock/server.js');
  // The demo key is published (docs, help): no secret, even when the shell exports it as RSAPI_API_KEY, so the banner
  // and its `try:` line show it and paste. Any other key given with --api-key is masked on stdout as every known
  // secret: the banner names it instead of printing `***`.
  ctx.secrets.forget(DEFAULT_MOCK_API_KEY);
  const ownKey = ctx.globals.apiKey !== undefined && ctx.globals.apiKey !== DEFAULT_MOCK_API_KEY;
  await serveMock(options, ctx.io, ctx.signal, ownKey);
}
