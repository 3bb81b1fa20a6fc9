// Types of scripts/lazy-http2.mjs, for its test.
/** The node:http2 constants undici's client-h2.js reads while it loads, by name. */
export declare const HTTP2_CONSTANTS: Readonly<Record<string, string | number>>;
/** The stand-in's CommonJS source (`module` and `require` in scope). */
export declare const LAZY_HTTP2_SOURCE: string;
