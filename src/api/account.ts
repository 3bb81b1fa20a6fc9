// The key's account (`GET /account`: phpRank has it, the API document does not): its name and plan's name.
import { decodeRecord } from './http/decode.js';
import { isObject } from './model/record.js';
import { NotFoundError } from './errors.js';
import { HttpClient } from './http/http.js';

export interface Account {
  name: string | undefined;
  plan: string | undefined;
}

export class AccountApi {
  constructor(private readonly http: HttpClient) {}

  /** The account, or undefined where the service has no such route (404); any other failure is thrown. */
  async get(): Promise<Account | undefined> {
    const req = { method: 'GET' as const, path: '/account' };
    let body: unknown;
    try {
      body = (await this.http.request(req)).body;
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
    const record = decodeRecord(body, HttpClient.describe(req));
    // phpRank's plan is an object with a name; a plain name is taken as it is.
    const plan = isObject(record.plan) ? record.plan.name : record.plan;
    return { name: text(record.name), plan: text(plan) };
  }
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return typeof value === 'number' ? String(value) : undefined;
}
