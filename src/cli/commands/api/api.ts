// `rsapi api METHOD PATH [-f key=value ...]`: any request under the base URL, the raw JSON body out.
import { Argument, InvalidArgumentError } from '@commander-js/extra-typings';
import { UsageError } from '../../runtime/errors.js';
import { mayLeaveBasePath, type HttpMethod, type Params } from '../../../api/http/http.js';
import type { CommandContext } from '../../runtime/context.js';
import { readUserFile } from '../../runtime/files.js';
import { readAll } from '../../terminal/terminal.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import type { ApiCall } from './call.js';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Case-insensitive; the choices stay on the argument for help and shell completion. */
function methodArgument() {
  return new Argument('<method>', 'HTTP method (any case)').choices(METHODS).argParser((value: string): HttpMethod => {
    const method = value.toUpperCase() as HttpMethod;
    if (!METHODS.includes(method)) throw new InvalidArgumentError(`Allowed choices are ${METHODS.join(', ')}.`);
    return method;
  });
}

function pathArgument(value: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith('//')) {
    throw new InvalidArgumentError('give a path under the base URL, such as /reports (the key is never sent elsewhere).');
  }
  if (mayLeaveBasePath(value.split('?')[0]!)) {
    throw new InvalidArgumentError('the path must stay under the base URL: "." and ".." steps and backslashes are refused, encoded (%2e%2e) or not.');
  }
  return value;
}

function collectField(value: string, previous: string[] = []): string[] {
  if (!/^[^=]+=/.test(value)) throw new InvalidArgumentError(`"${value}" is not key=value.`);
  return [...previous, value];
}

function collectHeader(value: string, previous: string[] = []): string[] {
  const name = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):/.exec(value)?.[1];
  if (!name) throw new InvalidArgumentError(`"${value}" is not Name: value.`);
  // The key is the stored or given one, sent nowhere else: a header cannot replace it.
  if (name.toLowerCase() === 'authorization')
    throw new InvalidArgumentError('the Authorization header carries the configured key; use --api-key or a profile instead.');
  return [...previous, value];
}

function headersOf(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return headers;
}

function fieldsOf(pairs: string[]): Params {
  const fields: Params = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at);
    if (key in fields) throw new UsageError(`field "${key}" given twice`);
    fields[key] = pair.slice(at + 1);
  }
  return fields;
}

function declareApi(program: ParentCommand) {
  return program
    .command('api')
    .description('Send any request under the base URL and print the raw JSON')
    .addArgument(methodArgument())
    .argument('<path>', 'path under the base URL, with or without /api/v1; may carry a ?query', pathArgument)
    .option('-f, --field <key=value>', 'a field: query parameter for GET and DELETE, form field otherwise (repeatable)', collectField)
    .option('--paginate', 'GET every page of a list and print their records as one JSON array')
    .option('-i, --include', 'print the status line and headers before the body')
    .option('-H, --header <name:value>', 'an HTTP header to add (repeatable)', collectHeader)
    .option(
      '--input <file>',
      'the request body from a file (- for stdin), sent as it is (JSON unless -H Content-Type says otherwise); -f fields go in the query string',
    )
    .option('--silent', 'do not print the response body');
}

export type ApiOptions = OptionsOf<ReturnType<typeof declareApi>> & { method: HttpMethod; path: string };

export function registerApi(program: ParentCommand, invocation: Invocation): void {
  const command = declareApi(program);
  command.addHelpText(
    'after',
    `
Same key, base URL, retries, errors and exit codes as every other command; the body is printed
as it came (pretty-printed JSON), nothing for an empty one. Output flags (-o, --fields) do not apply.
An error's JSON body is printed on stdout too, as gh api does, with the error's exit code.

Examples:
  $ rsapi api GET /reports -f result=bad -f per_page=100
  $ rsapi api get '/reports?search=example.com&sort=asc'
  $ rsapi api POST /reports -f url=https://example.com/ -f privacy=1
  $ rsapi api DELETE /reports/42
  $ rsapi api GET /projects --paginate -f per_page=100 | jq length
  $ rsapi api GET /reports/42 -i
  $ rsapi api GET /reports -H 'Accept-Language: de' --jq '.data[].url'
  $ rsapi api POST /reports --input report.json --silent`,
  );
  handle(invocation, command, { plan: (ctx, opts, [method, path]) => planApi(ctx, { ...opts, method, path }), run: runApi });
}

/** What `rsapi api` sends: the call as runApiCall takes it, its body the --input file (- for stdin) read when run. */
export type ApiPlan = Omit<ApiCall, 'body'> & { headers: Record<string, string>; input: string | undefined };

/** Every check of `rsapi api` that needs no network: before the --input body is read or anything sent. */
export function planApi(ctx: CommandContext, opts: ApiOptions): ApiPlan {
  const fields = fieldsOf(opts.field ?? []); // a field given twice is refused
  if (opts.include && ctx.globals.jq !== undefined)
    throw new UsageError('--jq reads the JSON body; -i puts the status line and headers before it', { hint: 'give one of them' });
  if (opts.input !== undefined && opts.paginate)
    throw new UsageError('--input sends a body; --paginate follows the pages of a GET list', { hint: 'give one of them' });
  if (opts.paginate && opts.method !== 'GET') throw new UsageError('--paginate follows the pages of a list: only with GET');
  ctx.checkOutputFlags();
  return {
    method: opts.method,
    path: opts.path,
    fields,
    paginate: opts.paginate === true,
    include: opts.include === true,
    silent: opts.silent === true,
    headers: headersOf(opts.header ?? []),
    input: opts.input,
  };
}

/** Sends the request and prints the body as it came. */
export async function runApi(ctx: CommandContext, plan: ApiPlan) {
  const { input, ...call } = plan;
  const body = input === undefined ? undefined : await inputBody(ctx, input, call.headers);
  // Loaded when run: it brings node:http's status texts, which no other command's start-up needs.
  const { runApiCall } = await import('./call.js');
  await runApiCall(ctx, { ...call, body });
}

/** The --input body: a file, or stdin for `-`; its type is the -H Content-Type given, else JSON. */
async function inputBody(ctx: CommandContext, path: string, headers: Record<string, string>) {
  const text = path === '-' ? await readAll(ctx.io.stdin, ctx.signal) : await readUserFile(path, 'input file');
  const given = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return { text, contentType: given ?? 'application/json' };
}
