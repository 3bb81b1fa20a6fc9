// The assertions file (`--assert [PATH]`, RSAPI_ASSERT, default rsapi.config.json): read before any request, and every
// unknown key, check id, level or bad glob refused with the file's name, the line, and the nearest right word.
import { CHECK_IDS, IMPORTANCES, isCheckId, type CheckId, type Importance } from '../../api/model/checks.js';
import { RESULTS, type ReportResult } from '../../api/model/report-model.js';
import { isObject } from '../../api/model/record.js';
import { parseJsonFileWithLines, readJsonFile, refuseUnknownKeys, unknownWord, type Refuse } from './json-lines.js';
import { compileMatch, LEVELS, type AssertionSet, type Level, type Rule } from './rules.js';
import { globProblem } from '../../url-glob.js';

/** The file read when `--assert` is given without a path and RSAPI_ASSERT is not set: in the working directory. */
export const DEFAULT_ASSERT_FILE = 'rsapi.config.json';

/** The keys of the file and of a rule: the JSON Schema (schema/rsapi.config.schema.json) is held to these by a test. */
export const FILE_KEYS = ['$schema', 'assert', 'audit'] as const;
export const RULE_KEYS = ['match', 'minScore', 'result', 'checks', 'importance'] as const;

/**
 * Which file to read: the flag's path, else RSAPI_ASSERT's, else rsapi.config.json; undefined when neither the flag
 * nor RSAPI_ASSERT asks for assertions. A bare `--assert` is `true`.
 */
export function assertPath(flag: string | true | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (typeof flag === 'string') return flag;
  const fromEnv = env.RSAPI_ASSERT?.trim() ? env.RSAPI_ASSERT : undefined;
  if (flag === true) return fromEnv ?? DEFAULT_ASSERT_FILE;
  return fromEnv;
}

/** Reads and checks the file: a usage error (exit 2) names the file, the line and what is wrong. */
export function loadAssertions(path: string): AssertionSet {
  return parseAssertions(readJsonFile(path, 'assertions file', 'write one (see docs/assertions.md), or give its path: --assert PATH'), path);
}

/** The rules of a file's text; `path` names it in messages. */
export function parseAssertions(text: string, path: string): AssertionSet {
  const { whole, lines, refuse } = parseJsonFileWithLines(text, path);
  if (!isObject(whole)) throw refuse('', 'the file must hold one object: { "assert": [ ... ] }');
  refuseUnknownKeys(whole, FILE_KEYS, '', refuse);
  if (!Array.isArray(whole.assert))
    throw refuse(whole.assert === undefined ? '' : 'assert', '"assert" must be a list of rules: "assert": [ { "match": "**", ... } ]');
  // A file or a rule that asserts nothing would pass every run: a gate that proves nothing is refused, not kept.
  if (whole.assert.length === 0) throw refuse('assert', '"assert" holds no rule: the file asserts nothing', 'add a rule: { "match": "**", "minScore": 50 }');
  const rules = whole.assert.map((item, index) => readRule(item, `assert.${index}`, `${path}:${lines.get(`assert.${index}`) ?? 1}`, refuse));
  return { path, rules };
}

function readRule(item: unknown, at: string, source: string, refuse: Refuse): Rule {
  if (!isObject(item)) throw refuse(at, 'a rule must be an object: { "match": "**", "minScore": 50 }');
  refuseUnknownKeys(item, RULE_KEYS, at, refuse);
  const match = item.match ?? '**';
  if (typeof match !== 'string') throw refuse(`${at}.match`, '"match" must be a glob in a string, e.g. "example.com/blog/**"');
  const problem = globProblem(match);
  if (problem) throw refuse(`${at}.match`, `bad glob "${match}": ${problem}`);
  const rule: Rule = { match, test: compileMatch(match), checks: {}, importance: {}, source };
  if (item.minScore !== undefined) {
    if (typeof item.minScore !== 'number' || item.minScore < 0 || item.minScore > 100)
      throw refuse(`${at}.minScore`, '"minScore" must be a score from 0 to 100');
    rule.minScore = item.minScore;
  }
  if (item.result !== undefined) {
    if (typeof item.result !== 'string' || !(RESULTS as readonly string[]).includes(item.result)) {
      throw refuse(`${at}.result`, unknownWord('result', String(item.result), RESULTS, '(the worst result that passes)'));
    }
    rule.result = item.result as ReportResult;
  }
  if (item.checks !== undefined) {
    if (!isObject(item.checks)) throw refuse(`${at}.checks`, '"checks" must be an object of check id: level, e.g. { "title": "error" }');
    for (const [id, level] of Object.entries(item.checks)) {
      if (!isCheckId(id)) throw refuse(`${at}.checks.${id}`, unknownWord('check id', id, CHECK_IDS), 'the ids are listed by `rsapi reports stats --checks`');
      rule.checks[id as CheckId] = readLevel(level, `${at}.checks.${id}`, refuse);
    }
  }
  if (item.importance !== undefined) {
    if (!isObject(item.importance)) throw refuse(`${at}.importance`, '"importance" must be an object of importance: level, e.g. { "high": "error" }');
    for (const [name, level] of Object.entries(item.importance)) {
      if (!(IMPORTANCES as readonly string[]).includes(name)) throw refuse(`${at}.importance.${name}`, unknownWord('importance', name, IMPORTANCES));
      rule.importance[name as Importance] = readLevel(level, `${at}.importance.${name}`, refuse);
    }
  }
  if (rule.minScore === undefined && rule.result === undefined && Object.keys(rule.checks).length + Object.keys(rule.importance).length === 0) {
    throw refuse(at, 'the rule asserts nothing: give "minScore", "result", "checks" or "importance"');
  }
  return rule;
}

function readLevel(level: unknown, at: string, refuse: Refuse): Level {
  if (typeof level === 'string' && (LEVELS as readonly string[]).includes(level)) return level as Level;
  throw refuse(at, unknownWord('level', String(level), LEVELS));
}
