// phpRank reports with per-check results built by hand, and a loopback server answering list and show with them exactly.
import { CHECK_IDS, type Importance } from '../../src/api/model/checks.js';
import { sendJson, startRawServer, type RawServer } from './raw-server.js';

/** An importance per check, as phpRank weighs them (the exact split does not matter to rsapi). */
export function importanceOf(id: string): Importance {
  const high = ['title', 'meta_description', 'https_encryption', 'headings', 'content_length', 'mixed_content', 'noindex', 'load_time'];
  const low = ['favicon', 'social', 'inline_css', 'plaintext_email', 'server_signature', 'structured_data'];
  return high.includes(id) ? 'high' : low.includes(id) ? 'low' : 'medium';
}

/** What phpRank sends for a failed check, by check (others: `{ failed: null }`). */
const FAULTS: Record<string, { value: unknown; errors: unknown }> = {
  meta_description: { value: null, errors: { missing: null } },
  title: { value: 'Welcome to the very long and repetitive home page title of our company website', errors: { too_long: { max: 60 } } },
  load_time: { value: 6.2, errors: { too_slow: { max: 2 } } },
  image_keywords: { value: 9, errors: { missing: ['hero.jpg', 'logo.png', 'team.jpg', 'a.png', 'b.png', 'c.png', 'd.png'] } },
  favicon: { value: null, errors: { missing: null } },
};

/** A phpRank report: 36 checks, those named in `failing` failed; `result` the weighted score, as phpRank computes it. */
export function phprankReport(id: number, url: string, failing: readonly string[], project = url.split('/')[0] ?? url): Record<string, unknown> {
  const results: Record<string, unknown> = {};
  let total = 0;
  let passed = 0;
  for (const check of CHECK_IDS) {
    const importance = importanceOf(check);
    const weight = importance === 'high' ? 10 : importance === 'medium' ? 5 : 0;
    total += weight;
    if (failing.includes(check)) {
      const fault = FAULTS[check] ?? { value: null, errors: { failed: null } };
      results[check] = { passed: false, importance, value: fault.value, errors: fault.errors };
    } else {
      passed += weight;
      results[check] = { passed: true, importance, value: check === 'title' ? 'Home' : null };
    }
  }
  return {
    id,
    url,
    project,
    result: Math.round((passed / total) * 100),
    results,
    privacy: 0,
    password: false,
    generated_at: '2026-11-20T10:00:00.000000Z',
    created_at: '2026-11-20T10:00:00.000000Z',
  };
}

/** A seed-dialect report: a label, a score, no per-check results. */
export function seedReport(id: number, url: string): Record<string, unknown> {
  return { id, url, project: url.split('/')[0], result: 'good', score: 90, privacy: 0, generated_at: '2026-11-20T10:00:00Z' };
}

/** Answers GET /api/v1/reports (pages of `perPage`, phpRank's envelope) and GET /api/v1/reports/{id} from `records`. */
export async function startReportServer(
  records: readonly Record<string, unknown>[],
  create: (url: string) => Record<string, unknown> = (url) => phprankReport(100, url, []),
): Promise<RawServer & { env: Record<string, string> }> {
  const server = await startRawServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    if (request.method === 'POST' && url.pathname === '/api/v1/reports') {
      const sent = new URLSearchParams(request.body).get('url') ?? '';
      return sendJson(response, 201, { data: create(sent), status: 201 });
    }
    const one = /^\/api\/v1\/reports\/(\d+)$/.exec(url.pathname);
    if (one) {
      const record = records.find((r) => String(r.id) === one[1]);
      if (!record) return sendJson(response, 404, { message: 'Resource not found.', status: 404 });
      return sendJson(response, 200, { data: record, status: 200 });
    }
    if (url.pathname === '/api/v1/reports') {
      const perPage = Number(url.searchParams.get('per_page') ?? 10);
      const page = Number(url.searchParams.get('page') ?? 1);
      const project = url.searchParams.get('project');
      const matching = records.filter((r) => project === null || r.project === project);
      const lastPage = Math.max(1, Math.ceil(matching.length / perPage));
      const data = matching.slice((page - 1) * perPage, page * perPage);
      return sendJson(response, 200, {
        data,
        links: {},
        meta: { current_page: page, last_page: lastPage, per_page: perPage, total: matching.length, from: 1, to: data.length },
        status: 200,
      });
    }
    return sendJson(response, 404, { message: 'Resource not found.', status: 404 });
  });
  return { ...server, env: { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: 'test-key' } };
}
