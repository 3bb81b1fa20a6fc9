// The mock service's records: their shapes, the deterministic seed data, and how a report's fields derive from its URL.

/** One check as phpRank answers it: `errors` only on a failed check. */
export interface CheckResult {
  passed: boolean;
  importance: Importance;
  value: unknown;
  errors?: Record<string, unknown>;
}

export type CheckResults = Record<string, CheckResult>;
import type { Importance } from '../api/model/checks.js';

export type ReportResult = 'good' | 'decent' | 'bad';
export type Privacy = 0 | 1 | 2;

/** A stored report. `password` is kept for inspection by tests but never sent over HTTP. */
export interface MockReport {
  id: number;
  url: string;
  project: string;
  result: ReportResult;
  score: number;
  privacy: Privacy;
  generated_at: string;
  created_at: string;
  updated_at: string;
  password?: string;
  /** phpRank's per-check results; the seed flavor has none. */
  checks?: CheckResults;
}

/** A project as the service answers it; `reports_count` is computed from the stored reports. */
export interface MockProject {
  project: string;
  created_at: string;
  reports_count: number;
}

/** The public representation of a report: every stored field except the password. */
export type ReportResource = Omit<MockReport, 'password'>;

export const SEED_PROJECT_HOSTS = ['example.com', 'shop.example.org', 'blog.example.net', 'docs.example.io', 'news.example.co'] as const;

const SEED_PATHS = ['', 'pricing', 'about', 'contact', 'blog/launch', 'products/widget', 'careers', 'faq', 'terms'];

/** Seeded dates count from here, so the seed data never depends on the clock. */
const SEED_EPOCH_MS = Date.UTC(2026, 2, 2, 8, 0, 0);
const HOUR_MS = 3_600_000;

/** Laravel's JSON date format: ISO 8601 in UTC with microseconds. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function resultForScore(score: number): ReportResult {
  if (score >= 80) return 'good';
  if (score >= 50) return 'decent';
  return 'bad';
}

/** FNV-1a: a small, stable string hash, so the same URL always gets the same score. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function scoreForUrl(url: string): number {
  return hashString(url) % 101;
}

/** The project a URL belongs to: its hostname, without a leading `www.`. */
export function projectForUrl(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}

export function toReportResource(report: MockReport): ReportResource {
  const { password: _password, ...resource } = report;
  return resource;
}

/** What a report stores from the audit of its page. */
export interface PageAudit {
  score: number;
  result: ReportResult;
  checks?: CheckResults;
}

/** The seed flavor's audit: a score that is a function of the URL, and its label. */
export function seedAudit(url: string): PageAudit {
  const score = scoreForUrl(url);
  return { result: resultForScore(score), score };
}

function seededUrl(index: number): string {
  const host = SEED_PROJECT_HOSTS[index % SEED_PROJECT_HOSTS.length] ?? 'example.com';
  const round = Math.floor(index / SEED_PROJECT_HOSTS.length);
  const path = SEED_PATHS[round % SEED_PATHS.length] ?? '';
  const repeat = Math.floor(round / SEED_PATHS.length);
  const suffix = repeat > 0 ? `${path === '' ? 'home' : path}-${repeat + 1}` : path;
  // Some URLs of the first project carry `www.`, which the project name drops.
  const prefix = host === 'example.com' && round % 2 === 1 ? 'www.' : '';
  return `https://${prefix}${host}/${suffix}`;
}

/** Report number `index` (0-based) of the seed: a pure function of the index. */
export function seededReport(index: number): MockReport {
  const url = seededUrl(index);
  // Scores step by 53 modulo 101, which walks through all three results within a few reports.
  const score = (index * 53 + 17) % 101;
  const created = new Date(SEED_EPOCH_MS + index * 6 * HOUR_MS);
  // Generation lags creation by a varying number of hours, so "by generated_at" differs from "by id".
  const generated = new Date(created.getTime() + ((index * 17) % 29) * HOUR_MS);
  return {
    id: index + 1,
    url,
    project: projectForUrl(url),
    result: resultForScore(score),
    score,
    privacy: (index % 3) as Privacy,
    generated_at: formatTimestamp(generated),
    created_at: formatTimestamp(created),
    updated_at: formatTimestamp(generated),
    ...(index % 3 === 2 ? { password: `seed-secret-${index + 1}` } : {}),
  };
}

export function seededReports(count: number): MockReport[] {
  return Array.from({ length: Math.max(0, Math.floor(count)) }, (_unused, index) => seededReport(index));
}
