// A gateway in front of the mock that can fail everything: while `failing`, every request is answered 503 (creates and
// look-ups alike), a create being passed on first so that its report is stored (an answer lost, not a create refused).
import { startRawServer, sendJson, sendText, type RawServer, type SeenRequest } from './raw-server.js';

export interface FailingFront extends RawServer {
  /** Answer 503 to everything (true), or pass every request on to the mock and its answer back (false). */
  failing: boolean;
  /** The creates that reached the mock while failing: their reports are stored, their answers were 503. */
  storedUnanswered: number;
}

/**
 * Starts the gateway on 127.0.0.1 in front of the service at `target` (the mock's origin); healthy at first, failing
 * from a request `failFrom` picks on (that one included), or from when the test says so.
 */
export async function startFailingFront(target: string, failFrom: (request: SeenRequest) => boolean = () => false): Promise<FailingFront> {
  const front: FailingFront = Object.assign(
    await startRawServer(async (request, response) => {
      if (failFrom(request)) front.failing = true;
      if (!front.failing) {
        const answer = await passOn(target, request);
        return sendText(response, answer.status, answer.body, answer.contentType, answer.headers);
      }
      if (request.method === 'POST') {
        await passOn(target, request);
        front.storedUnanswered++;
      }
      sendJson(response, 503, { message: 'Service Unavailable' });
    }),
    { failing: false, storedUnanswered: 0 },
  );
  return front;
}

/** The request sent on to the service as it came (its key, form and query), and the service's answer. */
async function passOn(target: string, request: SeenRequest): Promise<{ status: number; body: string; contentType: string; headers: Record<string, string> }> {
  const headers: Record<string, string> = {};
  for (const name of ['authorization', 'accept', 'content-type', 'user-agent']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const answer = await fetch(`${target}${request.url}`, { method: request.method, headers, body: hasBody ? request.body : undefined });
  const kept: Record<string, string> = {};
  for (const name of ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining']) {
    const value = answer.headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return { status: answer.status, body: await answer.text(), contentType: answer.headers.get('content-type') ?? 'application/json', headers: kept };
}
