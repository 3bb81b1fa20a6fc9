// The bench's reference for one page: the least a script needs to fetch one page of reports with undici and print it as
// JSON. The tightest honest floor: undici's Agent and request API imported directly (as src/api/http/transport.ts does), not
// the package's index, whose extra load time would hide a regression of rsapi's own.
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';

const agent = new Agent();
const response = await request.call(agent, {
  origin: new URL(process.env.RSAPI_BASE_URL).origin,
  path: `${new URL(process.env.RSAPI_BASE_URL).pathname.replace(/\/$/, '')}/reports`,
  method: 'GET',
  headers: { authorization: `Bearer ${process.env.RSAPI_API_KEY}`, accept: 'application/json' },
});
const body = await response.body.json();
process.stdout.write(`${JSON.stringify(body.data, null, 2)}\n`);
await agent.close();
