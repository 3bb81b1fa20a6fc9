// The build's stand-in for node:http2 in undici's client-h2.js: HTTP/2 is loaded on first use, not at every request.
//
// undici's client.js requires client-h2.js, which requires node:http2 while it loads and reads ten of its constants.
// node:http2 brings tls and crypto with it (~5 ms of a one-page list), yet undici calls it only
// to open an HTTP/2 session (allowH2 or h2c), which rsapi never asks for. So client-h2.js gets a module holding those
// constants' values (test/scripts/lazy-http2.test.ts holds them equal to Node's), which loads the real module on any
// other use.

/** The constants client-h2.js reads while it loads, as node:http2 defines them (header names, RFC 9113 error codes). */
export const HTTP2_CONSTANTS = Object.freeze({
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
});

/** The stand-in's source (CommonJS): the constants above at hand, anything else from the real module, loaded then. */
export const LAZY_HTTP2_SOURCE = `let real;
const load = () => (real ??= require('node:http2'));
const known = ${JSON.stringify(HTTP2_CONSTANTS)};
const constants = new Proxy(known, { get: (target, key) => (Object.hasOwn(target, key) ? target[key] : load().constants[key]) });
module.exports = new Proxy({}, { get: (_, key) => (key === 'constants' ? constants : load()[key]) });
`;

/** The esbuild plugin: node:http2 as undici's client-h2.js requires it resolves to the stand-in; elsewhere it is left alone. */
export const lazyHttp2 = {
  name: 'lazy-http2',
  setup(builder) {
    builder.onResolve({ filter: /^(node:)?http2$/ }, (args) =>
      /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/.test(args.importer)
        ? { path: 'http2', namespace: 'rsapi-lazy-http2' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'rsapi-lazy-http2' }, () => ({ contents: LAZY_HTTP2_SOURCE, loader: 'js' }));
  },
};
