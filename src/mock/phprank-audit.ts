// phpRank's side of a report in the mock: how a sent URL becomes the stored final URL, and the audit (36 checks, the
// weighted score, the label) that is a pure function of that stored URL.

import { CHECK_IDS, type CheckId, type Importance } from '../api/model/checks.js';
import { labelForScore } from '../api/model/report-model.js';
import { hashString, type CheckResult, type CheckResults, type PageAudit } from './data.js';

export type { CheckResult, CheckResults } from './data.js';

interface CheckSpec {
  importance: Importance;
  passed: unknown;
  failed: unknown;
  errors: Record<string, unknown>;
}

// The importance of each check is the mock's choice: what search engines and visitors notice first weighs most.
const CHECKS: Record<CheckId, CheckSpec> = {
  '404_page': { importance: 'high', passed: true, failed: false, errors: { missing: null } },
  charset: { importance: 'low', passed: 'utf-8', failed: null, errors: { missing: null } },
  content_keywords: { importance: 'high', passed: ['example', 'page'], failed: [], errors: { missing: ['example'] } },
  content_length: { importance: 'medium', passed: 812, failed: 96, errors: { too_few: { min: 500 } } },
  defer_javascript: { importance: 'medium', passed: [], failed: ['/js/app.js'], errors: { not_deferred: ['/js/app.js'] } },
  deprecated_html_tags: { importance: 'low', passed: [], failed: { font: 2 }, errors: { bad_tags: { font: 2 } } },
  doctype: { importance: 'medium', passed: '<!DOCTYPE html>', failed: null, errors: { missing: null } },
  dom_size: { importance: 'medium', passed: 640, failed: 2400, errors: { too_many_nodes: { max: 1500 } } },
  favicon: { importance: 'medium', passed: '/favicon.ico', failed: null, errors: { missing: null } },
  headings: { importance: 'high', passed: { h1: ['Welcome'], h2: ['About us'] }, failed: { h2: ['About us'] }, errors: { missing: null } },
  htst: { importance: 'low', passed: 'max-age=31536000', failed: null, errors: { missing: null } },
  http2: { importance: 'medium', passed: '2', failed: '1.1', errors: { missing: null } },
  http_requests: {
    importance: 'medium',
    passed: { JavaScripts: 4, CSS: 2, Images: 9 },
    failed: { JavaScripts: 48, CSS: 21, Images: 80 },
    errors: { too_many: { max: 50 } },
  },
  https_encryption: { importance: 'high', passed: 'https', failed: 'http', errors: { missing: null } },
  image_format: { importance: 'medium', passed: [], failed: ['/img/hero.bmp'], errors: { bad_format: ['/img/hero.bmp'] } },
  image_keywords: { importance: 'high', passed: [], failed: ['/img/hero.png'], errors: { missing: ['/img/hero.png'] } },
  in_page_links: {
    importance: 'medium',
    passed: { Internals: 24, Externals: 3 },
    failed: { Internals: 240, Externals: 31 },
    errors: { too_many: { max: 150 } },
  },
  inline_css: { importance: 'low', passed: [], failed: ['style="color:red"'], errors: { found: 1 } },
  language: { importance: 'medium', passed: 'en', failed: null, errors: { missing: null } },
  load_time: { importance: 'high', passed: 0.82, failed: 6.2, errors: { too_slow: { max: 2 } } },
  meta_description: { importance: 'high', passed: 'What this page is about, in one sentence.', failed: null, errors: { missing: null } },
  meta_viewport: { importance: 'high', passed: 'width=device-width, initial-scale=1', failed: null, errors: { missing: null } },
  mixed_content: { importance: 'high', passed: [], failed: ['http://cdn.example/lib.js'], errors: { found: ['http://cdn.example/lib.js'] } },
  noindex: { importance: 'high', passed: null, failed: 'noindex', errors: { found: 'noindex' } },
  page_size: { importance: 'medium', passed: 48213, failed: 2400000, errors: { too_large: { max: 330000 } } },
  plaintext_email: { importance: 'low', passed: [], failed: ['info@example.com'], errors: { found: ['info@example.com'] } },
  robots: { importance: 'medium', passed: null, failed: 'Disallow: /', errors: { failed: null } },
  seo_friendly_url: { importance: 'high', passed: true, failed: false, errors: { bad_format: null } },
  server_signature: { importance: 'low', passed: null, failed: 'Apache/2.4.41 (Ubuntu)', errors: { found: 'Apache/2.4.41 (Ubuntu)' } },
  sitemap: { importance: 'medium', passed: ['/sitemap.xml'], failed: [], errors: { missing: null } },
  social: { importance: 'low', passed: { facebook: 1, twitter: 1 }, failed: [], errors: { missing: null } },
  structured_data: { importance: 'low', passed: { 'Open Graph': 4 }, failed: [], errors: { missing: null } },
  text_compression: { importance: 'medium', passed: 'gzip', failed: null, errors: { missing: null } },
  text_html_ratio: { importance: 'low', passed: 24, failed: 4, errors: { too_small: { min: 10 } } },
  title: { importance: 'high', passed: 'Example page title', failed: null, errors: { missing: null } },
  unsafe_cross_origin_links: { importance: 'low', passed: [], failed: ['https://partner.example/'], errors: { unsafe: ['https://partner.example/'] } },
};

/** phpRank's weights: a low-importance check counts for nothing in the score. */
export const IMPORTANCE_WEIGHT: Readonly<Record<Importance, number>> = { high: 10, medium: 5, low: 0 };

const TOTAL_WEIGHT = CHECK_IDS.reduce((sum, id) => sum + IMPORTANCE_WEIGHT[CHECKS[id].importance], 0);

/** Picked so that the first three seeded reports are good, decent and bad, as a short seed should show all three. */
const TARGET_SALT = 'phprank-8:';

/** The score a URL aims at, 0-100. */
function targetScore(storedUrl: string): number {
  return hashString(`${TARGET_SALT}${storedUrl}`) % 101;
}

/**
 * Which checks pass: high and medium ones, in an order that is the URL's own, pass while their weight keeps the
 * score at or under the URL's target; low ones (weightless) pass two times in three. So scores spread over 0-100 and
 * the mix of failed checks differs from URL to URL.
 */
function passedChecks(storedUrl: string): Set<CheckId> {
  const budget = (targetScore(storedUrl) / 100) * TOTAL_WEIGHT;
  const order = [...CHECK_IDS].sort((left, right) => hashString(`${storedUrl}#${left}`) - hashString(`${storedUrl}#${right}`));
  const passed = new Set<CheckId>();
  let weight = 0;
  for (const id of order) {
    const checkWeight = IMPORTANCE_WEIGHT[CHECKS[id].importance];
    if (checkWeight === 0) {
      if (hashString(`${storedUrl}#${id}`) % 3 !== 0) passed.add(id);
    } else if (weight + checkWeight <= budget) {
      weight += checkWeight;
      passed.add(id);
    }
  }
  return passed;
}

function checkResult(id: CheckId, passed: boolean): CheckResult {
  const spec = CHECKS[id];
  if (passed) return { passed, importance: spec.importance, value: spec.passed };
  return { passed, importance: spec.importance, value: spec.failed, errors: { ...spec.errors } };
}

/** phpRank's score of a set of results: 100 * passed weight / total weight. */
export function weightedScore(checks: CheckResults): number {
  let passed = 0;
  let total = 0;
  for (const check of Object.values(checks)) {
    const weight = IMPORTANCE_WEIGHT[check.importance];
    total += weight;
    if (check.passed) passed += weight;
  }
  return total === 0 ? 0 : (100 * passed) / total;
}

/**
 * The audit of the page at `storedUrl` as a report keeps it (the rounded score, its label, the checks): the same URL
 * always gets the same results. A create or an update answers with the unrounded score (weightedScore of the checks).
 */
export function auditPage(storedUrl: string): PageAudit {
  const passed = passedChecks(storedUrl);
  const checks: CheckResults = {};
  for (const id of CHECK_IDS) checks[id] = checkResult(id, passed.has(id));
  const score = Math.round(weightedScore(checks));
  return { score, result: labelForScore(score), checks };
}

/**
 * A re-audit of a page that changed a little since (--drift R): each check of the report's last audit flips with a
 * chance of R, the score and label following. Seeded by the page and its last audit's time, so a run is repeatable.
 */
export function driftedAudit(storedUrl: string, last: CheckResults | undefined, share: number, lastGenerated: string): PageAudit {
  const before: CheckResults = last ?? auditPage(storedUrl).checks ?? {};
  let state = hashString(`${storedUrl}\n${lastGenerated}`) >>> 0 || 1;
  const random = () => {
    // xorshift32: small, seeded, the same on every Node.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
  const checks: CheckResults = {};
  for (const id of CHECK_IDS) {
    const was = before[id]?.passed ?? true;
    checks[id] = checkResult(id, random() < share ? !was : was);
  }
  const score = Math.round(weightedScore(checks));
  return { score, result: labelForScore(score), checks };
}

/**
 * phpRank's cleaning of a URL or a search text: no scheme, no leading `www.`, no trailing `/` when the path is the root.
 */
export function cleanUrlText(text: string): string {
  const bare = text
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^www\./i, '');
  return /^[^/?#]*\/$/.test(bare) ? bare.slice(0, -1) : bare;
}

/** A path segment `old` stands for a page that moved: the service follows the redirect to `new`. */
function followMovedSegment(url: URL): URL {
  const segments = url.pathname.split('/');
  if (!segments.includes('old')) return url;
  const moved = new URL(url.href);
  moved.pathname = segments.map((segment) => (segment === 'old' ? 'new' : segment)).join('/');
  return moved;
}

/** Where the sent URL ends after redirects: an explicit one first (by the URL as sent), then the moved segments. */
export function finalUrl(sentUrl: string, redirects: Readonly<Record<string, string>>): URL {
  const explicit = redirects[sentUrl] ?? redirects[new URL(sentUrl).href];
  return followMovedSegment(new URL(explicit ?? sentUrl));
}

/** The URL phpRank stores for a sent one: the final URL, cleaned (the fragment never reaches the service). */
export function storedUrlFor(sentUrl: string, redirects: Readonly<Record<string, string>>): string {
  const url = finalUrl(sentUrl, redirects);
  url.hash = '';
  return cleanUrlText(url.href);
}

/** A report's project: the final host, without `www.`. */
export function projectOfStoredUrl(storedUrl: string): string {
  return new URL(`http://${storedUrl}`).hostname.replace(/^www\./, '');
}
