// The mock's flavors: which service it plays (the API document's, or phpRank as deployed), and every point where the
// two differ, so the server and the routes ask here instead of testing the flavor's name.

import type { FlavorName } from './flavor-names.js';
import type { MockOptions } from './options.js';
import { dispatch, json, type RouteRequest, type RouteResponse } from './routes.js';
import { SEED_STORE_POLICY, type StorePolicy } from './store.js';

export { FLAVOR_NAMES, type FlavorName } from './flavor-names.js';

/** What the server needs to know of a request before routing it. */
export interface RequestHead {
  path: string;
  headers: Record<string, string>;
  /** Scheme and authority the client used, for absolute links (a redirect's Location). */
  origin: string;
}

export interface MockFlavor {
  name: FlavorName;
  /** How the start banner names the service played. */
  title: string;
  /** Requests a minute when the options set no `rateLimit`; 0 means no throttle. */
  defaultRateLimit: number;
  storePolicy(options: MockOptions): StorePolicy;
  /** Whether the request goes through the throttle and the key check (the API), or is open (a web page). */
  isGuarded(head: RequestHead): boolean;
  /** The answer to a request whose key was refused. */
  refuseKey(head: RequestHead): RouteResponse;
  /** An answer to every request with a good key before any route runs (a plan without API access), or undefined. */
  gate(options: MockOptions): RouteResponse | undefined;
  dispatch(request: RouteRequest): RouteResponse;
}

/** The API document's service, as the mock always played it. */
export const SEED_FLAVOR: MockFlavor = {
  name: 'seed',
  title: 'seed',
  defaultRateLimit: 0,
  storePolicy: () => SEED_STORE_POLICY,
  isGuarded: () => true,
  refuseKey: () => json(401, { message: 'Unauthenticated.' }),
  gate: () => undefined,
  dispatch,
};
