// Where a sitemap may lead: its site (the host given, and its `www.` twin) and the hosts the user allows; and no fetch
// to a loopback, link-local or private address for a host other than one the user gave.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { plural } from '../../../../../plural.js';
import { BadSitemapError, UsageError } from '../../../../runtime/errors.js';

/** The hosts a run's sitemaps may lead to. */
export interface SiteRule {
  /** The host of the sitemap or site root given (`example.com`, `127.0.0.1:8080`): lower case, port when not the default. */
  site: string;
  /** --allow-host / `allowHosts`: a host (any port) or host:port. */
  allowed: readonly string[];
}

/** The rule for a sitemap or site root the user gave as an http(s) URL. */
export function siteRuleOf(source: string, allowed: readonly string[]): SiteRule {
  return { site: new URL(source).host, allowed };
}

/** `example.com` and `www.example.com` are one site. */
function wwwTwin(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : `www.${host}`;
}

/** Whether the user named this host: the site itself, or a host allowed (by name on any port, or as host:port). */
export function isGivenHost(url: URL, rule: SiteRule): boolean {
  return url.host === rule.site || rule.allowed.some((host) => host === url.host || host === url.hostname);
}

/** Whether a page or a child sitemap stays on the site: the host given, its `www.` twin, or a host allowed. */
export function isOnSite(url: URL, rule: SiteRule): boolean {
  return isGivenHost(url, rule) || url.host === wwwTwin(rule.site);
}

/**
 * --allow-host's value as the rule compares it: a host name or address, with a port or not (`cdn.example.com`,
 * `localhost:8080`, `[::1]:8080`), as a URL writes it (lower case); anything else (a scheme, a path) is a usage error.
 */
export function allowedHost(value: string, flag = '--allow-host'): string {
  let url: URL | undefined;
  try {
    url = new URL(`http://${value}/`);
  } catch {
    url = undefined;
  }
  if (url === undefined || url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new UsageError(`${flag} ${JSON.stringify(value)} is not a host: give a name or address, with a port or not (cdn.example.com, localhost:8080)`);
  }
  return url.host;
}

/** Loopback, link-local, private, shared and unspecified addresses, both families (an IPv4 address mapped in IPv6 too). */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
  INTERNAL.addSubnet(`::ffff:${network}`, 96 + prefix, 'ipv6');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is loopback, link-local or private (the cloud metadata address 169.254.169.254 among them). */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Every address a host name resolves to (dns.lookup's, as a connection would find them). */
export type Resolve = (hostname: string) => Promise<string[]>;

const resolveAll: Resolve = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((found) => found.address);

/**
 * Refuses (a bad sitemap, exit 8; skipped with skipInvalid) a fetch of `url` when its host is not one the user gave and
 * it is, or resolves to, a loopback, link-local or private address. A name that does not resolve is left to the fetch,
 * which fails on its own (or goes through a proxy, which resolves it).
 */
export async function refuseInternalAddress(url: URL, rule: SiteRule, resolve: Resolve = resolveAll): Promise<void> {
  if (isGivenHost(url, rule)) return;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = isIP(hostname) !== 0 ? [hostname] : await resolve(hostname);
  } catch {
    return;
  }
  const internal = addresses.find(isInternalAddress);
  if (internal !== undefined) {
    throw new BadSitemapError(
      `the sitemap ${url.href} is on ${url.host}${internal === hostname ? '' : ` (${internal})`}, a loopback, link-local or private address; ` +
        'rsapi reads such addresses only on a host given (the sitemap, or --allow-host)',
    );
  }
}

/** What sitemaps listed on other hosts than their site's, left out: how many page URLs and sitemaps, and the first few hosts. */
export interface OffSite {
  urls: number;
  sitemaps: number;
  hosts: Set<string>;
}

/** Hosts the off-site line names, at most. */
const HOSTS_NAMED = 3;

export function noOffSite(): OffSite {
  return { urls: 0, sitemaps: 0, hosts: new Set() };
}

/** Counts a page URL or a sitemap left out for its host. */
export function countOffSite(offSite: OffSite, url: URL, kind: 'urls' | 'sitemaps'): void {
  offSite[kind]++;
  if (offSite.hosts.size < HOSTS_NAMED) offSite.hosts.add(url.host);
}

/** Adds one read's count to the run's. */
export function addOffSite(into: OffSite, more: OffSite): void {
  into.urls += more.urls;
  into.sitemaps += more.sitemaps;
  for (const host of more.hosts) if (into.hosts.size < HOSTS_NAMED) into.hosts.add(host);
}

/** The one line saying what was left out, or undefined when nothing was. */
export function offSiteLine(offSite: OffSite): string | undefined {
  const counts = [offSite.urls > 0 ? plural(offSite.urls, 'page URL') : '', offSite.sitemaps > 0 ? plural(offSite.sitemaps, 'sitemap') : ''];
  const what = counts.filter((count) => count !== '').join(' and ');
  if (what === '') return undefined;
  const more = offSite.urls + offSite.sitemaps > offSite.hosts.size ? ', ...' : '';
  return `rsapi: warning: skipping ${what} on other hosts than the sitemap's site (${[...offSite.hosts].join(', ')}${more}); --allow-host HOST admits one`;
}
