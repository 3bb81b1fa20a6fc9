// The bench's reference for one page: the least a script needs to fetch one page of reports with undici and print it as JSON.
import { Agent, request } from 'undici';

const agent = new Agent();
const response = await request(`${process.env.RSAPI_BASE_URL}/reports`, {
  dispatcher: agent,
  headers: { authorization: `Bearer ${process.env.RSAPI_API_KEY}`, accept: 'application/json' },
});
const body = await response.body.json();
process.stdout.write(`${JSON.stringify(body.data, null, 2)}\n`);
await agent.close();
