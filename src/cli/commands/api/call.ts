// The run of `rsapi api`: one request or every page of a list (one JSON array), -i's status line and headers, an error's body on stdout as gh api prints it.
import { STATUS_CODES } from 'node:http';
import { ApiError } from '../../../api/errors.js';
import type { HttpMethod, Params } from '../../../api/http/http.js';
import { stringifyJson } from '../../../api/http/json.js';
import { iteratePages } from '../../../api/http/paging.js';
import { decodePage } from '../../../api/http/decode.js';
import { DEFAULT_PER_PAGE } from '../../../api/reports.js';
import { maskSecretFields } from '../../../output/masking.js';
import { terminalJson, terminalLines, terminalText } from '../../../output/terminal-text.js';
import type { CommandContext } from '../../runtime/context.js';

export interface ApiCall {
  method: HttpMethod;
  path: string;
  fields: Params;
  /** Follow a list's pages (GET only) and print their records as one array. */
  paginate: boolean;
  /** Print the status line and headers before the body (of each page with --paginate). */
  include: boolean;
  /** Print no body (-i's head still). */
  silent?: boolean;
  /** More headers (-H). */
  headers?: Record<string, string>;
  /** A body sent as it is (--input). */
  body?: { text: string; contentType: string };
}

type Headers = Record<string, string | string[] | undefined>;

/** Sends the call (planApi has checked it). */
export async function runApiCall(ctx: CommandContext, call: ApiCall): Promise<void> {
  const client = ctx.client();
  const tty = ctx.io.stdoutIsTTY;
  const printJson = (value: unknown) => {
    if (call.silent) return;
    const json = stringifyJson(maskSecretFields(value), 2);
    ctx.io.stdout.write(`${tty ? terminalJson(json) : json}\n`);
  };
  const printHead = (status: number, headers: Headers) => {
    if (!call.include) return;
    const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()];
    for (const [name, value] of Object.entries(headers)) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) lines.push(`${headerName(name)}: ${one}`);
    }
    ctx.io.stdout.write(`${(tty ? lines.map(terminalText) : lines).join('\n')}\n\n`);
  };
  try {
    if (!call.paginate) {
      const response = await client.raw(call.method, call.path, call.fields, { headers: call.headers, body: call.body });
      printHead(response.status, response.headers);
      if (response.body !== undefined) printJson(response.body);
      return;
    }
    const query = new URLSearchParams(call.path.split('?')[1] ?? '');
    const startPage = Number(call.fields.page ?? query.get('page') ?? 1) || 1;
    const perPage = Number(call.fields.per_page ?? query.get('per_page')) || DEFAULT_PER_PAGE;
    const records: unknown[] = [];
    const fetchPage = async (page: number) => {
      const response = await client.raw('GET', call.path, { ...call.fields, page: String(page) }, { headers: call.headers });
      printHead(response.status, response.headers);
      return decodePage(response.body, page, perPage, { method: 'GET', path: call.path });
    };
    for await (const page of iteratePages(fetchPage, { all: true, startPage })) records.push(...page.records);
    printJson(records);
  } catch (error) {
    // As gh api: the error's own body on stdout (a script can read the service's message), the error line on stderr.
    if (error instanceof ApiError && error.response) {
      printHead(error.response.status, error.response.headers);
      if (error.response.body !== undefined) printJson(error.response.body);
      // With -i, a body that is not JSON (an HTML error page, a proxy's text) is shown as it came, escaped on a terminal.
      else if (call.include && !call.silent && error.response.text) ctx.io.stdout.write(`${tty ? terminalLines(error.response.text) : error.response.text}\n`);
    }
    throw error;
  }
}

/** `content-type` -> `Content-Type`, as curl -i and gh api -i show them. */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
}
