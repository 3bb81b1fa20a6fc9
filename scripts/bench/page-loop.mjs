// The bench's reference for --all: every page of reports at per_page=100, one request after the other, with undici; ndjson out.
import { Agent, request } from 'undici';

const agent = new Agent();
const headers = { authorization: `Bearer ${process.env.RSAPI_API_KEY}`, accept: 'application/json' };
for (let page = 1; ; page++) {
  const response = await request(`${process.env.RSAPI_BASE_URL}/reports?per_page=100&page=${page}`, { dispatcher: agent, headers });
  const body = await response.body.json();
  if (body.data.length > 0) process.stdout.write(`${body.data.map((record) => JSON.stringify(record)).join('\n')}\n`);
  if (!body.links?.next) break;
}
await agent.close();
