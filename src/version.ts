// The package version, fixed into the bundle at build time (see scripts/build.mjs and vitest.config.ts).
declare const __RSAPI_VERSION__: string;

export const VERSION: string = __RSAPI_VERSION__;
export const USER_AGENT = `rsapi/${VERSION}`;
