// The failing URLs named where a CI log shows them: on stderr (the first 20, worst first, what failed and the value),
// and with GITHUB_ACTIONS=true as workflow annotations (::error / ::warning, at most 50), escaped as GitHub reads them.
import { andMore } from '../../output/capped-list.js';
import type { UrlVerdict } from './judge.js';

/** URLs named on stderr, of failures and of warnings each, before `… and N more`. */
export const NAMED_ON_STDERR = 20;
/** Workflow annotations at most: GitHub shows only so many per step anyway (10 of each kind in the summary). */
export const MAX_ANNOTATIONS = 50;

/** What a stderr line names of one URL before `… and N more`: a log line stays readable, the annotation has them all. */
export const FINDINGS_PER_LINE = 5;

/** `example.com/pricing: score 41 < 70; title: missing`: one URL and what it failed (errors, or warnings). */
export function describeVerdict(verdict: UrlVerdict, severity: 'error' | 'warn', limit = FINDINGS_PER_LINE): string {
  return `${verdict.url}: ${findingsText(verdict, severity, limit)}`;
}

function findingsText(verdict: UrlVerdict, severity: 'error' | 'warn', limit = Infinity): string {
  const texts = verdict.findings.filter((f) => f.severity === severity).map((f) => f.text);
  return texts.length > limit ? `${texts.slice(0, limit).join('; ')}; ${andMore(texts.length - limit)}` : texts.join('; ');
}

/** The lines for stderr: each failing URL, then each URL that only warns, capped. */
export function namedFailureLines(failures: readonly UrlVerdict[], warnings: readonly UrlVerdict[]): string[] {
  const lines: string[] = [];
  for (const v of failures.slice(0, NAMED_ON_STDERR)) lines.push(`rsapi:   ${describeVerdict(v, 'error')}`);
  if (failures.length > NAMED_ON_STDERR) lines.push(`rsapi:   ${andMore(failures.length - NAMED_ON_STDERR)}`);
  for (const v of warnings.slice(0, NAMED_ON_STDERR)) lines.push(`rsapi:   warning: ${describeVerdict(v, 'warn')}`);
  if (warnings.length > NAMED_ON_STDERR) lines.push(`rsapi:   warning: ${andMore(warnings.length - NAMED_ON_STDERR)}`);
  return lines;
}

/**
 * GitHub workflow commands, one a URL: `::error title=rsapi%3A example.com/pricing::score 41 < 70; title: missing`;
 * a failing URL that also warns gets a second, `::warning`. Errors first; at most MAX_ANNOTATIONS in all.
 */
export function annotationLines(failures: readonly UrlVerdict[], warnings: readonly UrlVerdict[]): string[] {
  const lines: string[] = [];
  const add = (verdict: UrlVerdict, severity: 'error' | 'warn') => {
    const text = findingsText(verdict, severity);
    if (text !== '') lines.push(annotation(severity === 'error' ? 'error' : 'warning', `rsapi: ${verdict.url}`, text));
  };
  for (const v of failures) add(v, 'error');
  for (const v of failures) add(v, 'warn');
  for (const v of warnings) add(v, 'warn');
  return lines.slice(0, MAX_ANNOTATIONS);
}

/** One annotation for the whole run (`::error title=rsapi::…`): a verdict no URL's annotation shows (a gate over nothing). */
export function runAnnotation(verdict: string): string {
  return annotation('error', 'rsapi', verdict.replace(/^rsapi: /, ''));
}

/** One warning for the whole run (`::warning title=rsapi::…`): a run that passed but should be looked at (a first run). */
export function runWarning(text: string): string {
  return annotation('warning', 'rsapi', text.replace(/^rsapi: /, ''));
}

/** `::error title=rsapi%3A example.com/a::text`, one per URL and text, at most MAX_ANNOTATIONS. */
export function urlAnnotations(items: readonly { url: string; text: string }[]): string[] {
  return items.slice(0, MAX_ANNOTATIONS).map(({ url, text }) => annotation('error', `rsapi: ${url}`, text));
}

/** One workflow command: `::error title=…::message`, both escaped as GitHub reads them. */
function annotation(kind: 'error' | 'warning', title: string, message: string): string {
  return `::${kind} title=${escapeProperty(title)}::${escapeData(message)}`;
}

/** A workflow command's message, as @actions/core escapes it: `%`, CR and LF. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: the message's escapes, and `:` and `,`, which end a property. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
