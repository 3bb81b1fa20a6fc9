// undici's Agent and request API, the parts a request without a proxy needs, in one module: the bundle loads them as one chunk.
export { default as Agent } from 'undici/lib/dispatcher/agent.js';
export { default as request } from 'undici/lib/api/api-request.js';
