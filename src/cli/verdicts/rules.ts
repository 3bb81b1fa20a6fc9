// Assertion rules: what one rule asks (score, result, per-check levels), the gate flags as a rule for `**`, and the
// rules that apply to one report merged key by key (a later rule wins; the flags, given last, win over the file).
import { IMPORTANCES, type CheckId, type Importance } from '../../api/model/checks.js';
import { RESULT_RANK, RESULTS, type ReportResult } from '../../api/model/report-model.js';
import { reportIdentity } from '../../api/model/report-url.js';
import type { GateOptions } from '../flags/verb-options.js';
import { globRegExp } from '../../url-glob.js';

export const LEVELS = ['error', 'warn', 'off'] as const;
export type Level = (typeof LEVELS)[number];
/** A level that says something: `off` says nothing. */
export type Severity = Exclude<Level, 'off'>;

/** Where a setting came from, as messages name it: `rsapi.config.json:4` or `--min-score`. */
export type Source = string;

export interface Rule {
  /** The glob as written, and compiled over report identities. */
  match: string;
  test: RegExp;
  minScore?: number;
  /** The worst result that still passes: `decent` fails a bad report. */
  result?: ReportResult;
  /** --fail-on: the result that fails, and any worse. */
  failOn?: ReportResult;
  checks: Partial<Record<CheckId, Level>>;
  importance: Partial<Record<Importance, Level>>;
  source: Source;
}

export interface AssertionSet {
  /** The file read, as given. */
  path: string;
  rules: Rule[];
}

/** A rule's setting with where it came from. */
export interface Setting<T> {
  value: T;
  source: Source;
  /** Set by a gate flag, not the file. */
  byFlag: boolean;
}

/** What applies to one report: per key, the last rule that set it. */
export interface Resolved {
  minScore?: Setting<number>;
  /** Fails a report whose result's rank is this or higher (good 0, decent 1, bad 2). */
  failAtRank?: Setting<number>;
  checks: Map<string, Setting<Level>>;
  importance: Map<Importance, Setting<Level>>;
  /** Check levels the flags set: they win over any the file sets, per check or by importance. */
  flagChecks: Map<string, Setting<Level>>;
  flagImportance: Map<Importance, Setting<Level>>;
}

/**
 * A glob as written in a rule or a flag: a scheme and a leading `www.` dropped and the host in lower case, as the
 * identity has them (`EXAMPLE.COM/**` matched nothing). The path keeps its case.
 */
export function compileMatch(glob: string): RegExp {
  return globRegExp(
    glob
      .trim()
      .replace(/^https?:\/\//i, '')
      .replace(/^www\./i, '')
      .replace(/^[^/]*/, (host) => host.toLowerCase()),
  );
}

/** The source of the flags' rule. */
const FLAGS = 'flags';

/** The gate flags as one rule for `**`, judged after the file's rules; undefined when no flag is given. */
export function flagRule(options: GateOptions): Rule | undefined {
  const checks: Partial<Record<CheckId, Level>> = {};
  for (const id of options.failOnCheck ?? []) checks[id] = 'error';
  const importance: Partial<Record<Importance, Level>> = {};
  if (options.failOnImportance !== undefined) {
    for (const level of IMPORTANCES.slice(0, IMPORTANCES.indexOf(options.failOnImportance) + 1)) importance[level] = 'error';
  }
  const empty = options.minScore === undefined && options.failOn === undefined && Object.keys(checks).length + Object.keys(importance).length === 0;
  if (empty) return undefined;
  return { match: '**', test: /^/, minScore: options.minScore, failOn: options.failOn, checks, importance, source: FLAGS };
}

/**
 * The settings that apply to the report at `url`: every rule whose glob matches, in order, the flags' rule last.
 * `matched`, when given, counts per rule the reports it matched.
 */
export function resolveFor(url: string, rules: readonly Rule[], flags: Rule | undefined, matched?: number[]): Resolved {
  const identity = reportIdentity(url);
  const resolved: Resolved = { checks: new Map(), importance: new Map(), flagChecks: new Map(), flagImportance: new Map() };
  for (const [index, rule] of rules.entries()) {
    if (!rule.test.test(identity)) continue;
    apply(resolved, rule, resolved.checks, resolved.importance);
    if (matched) matched[index] = (matched[index] ?? 0) + 1;
  }
  if (flags) apply(resolved, flags, resolved.flagChecks, resolved.flagImportance);
  return resolved;
}

function apply(resolved: Resolved, rule: Rule, checks: Map<string, Setting<Level>>, importance: Map<Importance, Setting<Level>>): void {
  const byFlag = rule.source === FLAGS;
  const from = (flag: string) => (byFlag ? flag : rule.source);
  if (rule.minScore !== undefined) resolved.minScore = { value: rule.minScore, source: from('--min-score'), byFlag };
  if (rule.result !== undefined) resolved.failAtRank = { value: RESULT_RANK.get(rule.result)! + 1, source: rule.source, byFlag };
  if (rule.failOn !== undefined) resolved.failAtRank = { value: RESULT_RANK.get(rule.failOn)!, source: '--fail-on', byFlag };
  for (const [id, level] of Object.entries(rule.checks)) checks.set(id, { value: level as Level, source: from('--fail-on-check'), byFlag });
  for (const [name, level] of Object.entries(rule.importance)) {
    importance.set(name as Importance, { value: level as Level, source: from('--fail-on-importance'), byFlag });
  }
}

/** A failed check's level for this report: the flags' first (by id, then importance), then the file's (by id, then importance). */
export function checkLevel(resolved: Resolved, id: string, importance: Importance | undefined): Setting<Level> | undefined {
  const byImportance = (map: Map<Importance, Setting<Level>>) => (importance === undefined ? undefined : map.get(importance));
  return resolved.flagChecks.get(id) ?? byImportance(resolved.flagImportance) ?? resolved.checks.get(id) ?? byImportance(resolved.importance);
}

/**
 * Whether any check rule could fail or warn this report, and whether only flags ask: then it must carry per-check
 * results to be judged.
 */
export function asksChecks(resolved: Resolved): { severity: Severity; byFlag: boolean } | undefined {
  const fromFile = [...resolved.checks.values(), ...resolved.importance.values()];
  const fromFlags = [...resolved.flagChecks.values(), ...resolved.flagImportance.values()];
  const levels = [...fromFile, ...fromFlags];
  const severity = levels.some((s) => s.value === 'error') ? 'error' : levels.some((s) => s.value === 'warn') ? 'warn' : undefined;
  if (severity === undefined) return undefined;
  return { severity, byFlag: !fromFile.some((s) => s.value !== 'off') };
}

/** The best result that fails at this rank, to say what was wanted: rank 1 (decent) wants good. */
export function wantedResult(failAtRank: number): ReportResult | undefined {
  return failAtRank === 0 ? undefined : RESULTS[failAtRank - 1];
}
