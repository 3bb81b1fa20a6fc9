// What the server makes of one line of stdin: a JSON-RPC message whose params fit its method, or the error answer
// that says why not (parse error, invalid request, invalid params in a line), so that every request is answered.
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { describeValue } from './arguments.js';

/** A message to handle; an error to answer; or a broken notification, which gets no answer (said on stderr). */
export type Admission = { message: JSONRPCMessage } | { answer: JSONRPCErrorResponse } | { dropped: string };

/** The requests the server answers, by method: their params are checked here, so a mistake is -32602 in a line. */
const REQUESTS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
} as const;

/** An error answer; without an id when the request's could not be read (the SDK's clients take none, not null). */
export function errorAnswer(id: RequestId | undefined, code: ErrorCode, message: string): JSONRPCErrorResponse {
  return { jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: { code, message } } as JSONRPCErrorResponse;
}

export function admitLine(line: string): Admission {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { answer: errorAnswer(undefined, ErrorCode.ParseError, `parse error: a line that is not JSON (${(error as Error).message})`) };
  }
  if (!isObject(value)) {
    // MCP has no batches: a message is one object.
    return { answer: errorAnswer(undefined, ErrorCode.InvalidRequest, `invalid request: a message is a JSON object, not ${describeValue(value)}`) };
  }
  const id = requestIdOf(value.id);
  const method = typeof value.method === 'string' ? value.method : undefined;
  if (method !== undefined && id !== undefined && value.params !== undefined && !isObject(value.params)) {
    return { answer: errorAnswer(id, ErrorCode.InvalidParams, `${method}: params must be an object, not ${describeValue(value.params)}`) };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    if (method !== undefined && value.id === undefined) return { dropped: `a notification ${method} that is not JSON-RPC 2.0` };
    return { answer: errorAnswer(id, ErrorCode.InvalidRequest, 'invalid request: not a JSON-RPC 2.0 message ({"jsonrpc": "2.0", "id", "method", "params"})') };
  }
  const schema = method !== undefined && id !== undefined && Object.hasOwn(REQUESTS, method) ? REQUESTS[method as keyof typeof REQUESTS] : undefined;
  const checked = schema?.safeParse({ method, params: value.params });
  if (checked && !checked.success && method !== undefined) {
    const [first, ...rest] = checked.error.issues;
    const more = rest.length > 0 ? ` (and ${rest.length} more)` : '';
    return { answer: errorAnswer(id, ErrorCode.InvalidParams, `${method}: ${first ? issueText(first, value.params) : 'invalid params'}${more}`) };
  }
  return { message: parsed.data };
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
}

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
};

/** `arguments must be an object, not "x"`: the param by its path under params, what it must be and what it is. */
function issueText(issue: Issue, params: unknown): string {
  const path = issue.path.slice(1).map(String);
  const name = path.length === 0 ? 'params' : path.join('.');
  const actual = path.reduce<unknown>((at, key) => (isObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined), params);
  if (issue.code !== 'invalid_type' || issue.expected === undefined) return `${name}: ${issue.message.toLowerCase()}`;
  const expected = EXPECTED[issue.expected] ?? issue.expected;
  return actual === undefined ? `${name} is required (${expected})` : `${name} must be ${expected}, not ${describeValue(actual)}`;
}

function requestIdOf(value: unknown): RequestId | undefined {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value)) ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
