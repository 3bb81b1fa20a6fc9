// `reports create` over many URLs, end to end: journal skips, output, gate, progress, Ctrl-C, summary, exit code.
import { UnsettledCreateError, type RsapiError } from '../../../../api/errors.js';
import { ExitCode, type ExitCodeValue, exitCodeOf, detailLines, hintOf } from '../../../runtime/exit-codes.js';
import type { MatchedBy, Privacy } from '../../../../api/reports.js';
import { CreateLedger } from '../../../../api/create/ledger.js';
import type { ApiRecord } from '../../../../api/model/record.js';
import { withoutPassedValues } from '../../../../api/model/checks.js';
import { reportIdentity } from '../../../../api/model/report-url.js';
import type { CiReporter } from '../../../report-files/reporter.js';
import type { RunRecorder } from '../../../../history/recorder.js';
import type { Reading } from '../../../../history/types.js';
import type { CommandContext } from '../../../runtime/context.js';
import { Gate, type GateSetup } from '../../../verdicts/gates.js';
import { finishGate } from '../../../report-files/finish-gate.js';
import { forStderr, oneLineForStderr } from '../../../terminal/stderr.js';
import type { UrlInput } from './url-input.js';
import { createAll, type BulkCreateOutcome, type SentUrl } from './create-all.js';
import { existingReports, idAndUrl, useExisting, type ExistingMode } from './existing.js';
import { carriedLine, Journal, resumeLines, type JournalStore } from './journal.js';
import type { HeldLock } from '../../../../config/lock-file.js';
import { createBulkOutput, summaryLine } from './output.js';
import { CauseTally } from './service-gone.js';
import { Breaker, WATCH_AFTER_TRIP_MS } from './breaker.js';
import { createProgress, spinnerProgress } from './progress.js';
import { canAnimate } from '../../../terminal/status-line.js';
import { plural } from '../../../../plural.js';

export interface BulkCreatePlan {
  input: UrlInput;
  concurrency: number;
  privacy?: Privacy;
  password?: string;
  journalPath?: string;
  /** The journal kept elsewhere than a file (`rsapi audit` on a PostgreSQL history: in the history), instead of journalPath. */
  journalStore?: JournalStore;
  /** The journal's lock, taken by the plan (claimJournal). */
  journalLock?: HeldLock;
  /** A run that did every URL says so in its journal, so the next run on the path starts afresh (default: true). */
  journalEnds?: boolean;
  /** How long a journal's `created` entry is resumed (ms; undefined: for ever): an older one is sent again (--resume-within). */
  resumeWithinMs?: number;
  gate: GateSetup;
  /** Output a list, and report failures per URL, even for one URL (a share, a sitemap). */
  alwaysList?: boolean;
  /** --junit, --summary, --baseline: fed each outcome. */
  ci?: CiReporter;
  /** The run's recorder (--record): each report created, refreshed or kept is added to the history. */
  recorder?: RunRecorder;
  /** Every URL of the input, other shares' too: a report stored under one of them is not a redirected page's of this run. */
  knownUrls?: readonly string[];
  /** For a URL that already has a report (same identity): create another (default), re-audit it, or keep it. */
  existing?: ExistingMode;
  /** The command that resumes the run, where its journal is its own (`rsapi audit`); else a resume is `--journal PATH`. */
  resumeCommand?: string;
  /** Keep each URL's report whole in the outcomes (a run part writes them). */
  wholeReports?: boolean;
}

/** What a create run did with one URL of its input: `url` as sent (normalised), the first form given of each distinct URL. */
export type UrlOutcome = { url: string } & (
  | SentUrl
  /**
   * An earlier run of the journal created it: `id` is the report the journal names; `report` is the one read back from
   * the service now (printed and judged with the rest), the URL's newest: another when one was made since, none when
   * the service has none.
   */
  | { status: 'created earlier'; id: string | number | undefined; report: ApiRecord | undefined }
  /** Never sent: the run stopped (Ctrl-C, the journal failed, stdout went away, the service out of reach) before its turn. */
  | { status: 'not started' }
);

/** The run's exit code, and each URL's outcome in input order. */
export interface BulkCreateRunResult {
  code: ExitCodeValue;
  urls: UrlOutcome[];
  /** Why URLs were left not started (`interrupted`, `stdout was closed`, ...), when the run stopped early. */
  stoppedBy: string | undefined;
}

export async function runBulkCreate(ctx: CommandContext, plan: BulkCreatePlan): Promise<BulkCreateRunResult> {
  const createdSince = plan.resumeWithinMs === undefined ? undefined : Date.now() - plan.resumeWithinMs;
  const where = plan.journalStore ?? plan.journalPath;
  const journal = where === undefined ? undefined : await Journal.open(where, ctx, { lock: plan.journalLock, createdSince });
  try {
    // The files are written once the run's working state (the reports found there, the ledger, each URL's place) is
    // let go: a run of 50,000 pages held 20 MB of it through its end.
    return await judgeRun(ctx, plan, await createEach(ctx, plan, journal));
  } finally {
    journal?.close();
  }
}

/** What createEach did: what the run's end (judgeRun) needs, and nothing of how it was done. */
interface CreatedEach {
  gate: Gate;
  outcome: BulkCreateOutcome;
  stoppedBy: string | undefined;
  readerGone: boolean;
  /** The URLs left not started, in input order. */
  notStarted: string[];
  /** One URL's failure: thrown as a single request's is, once its files are written. */
  singleFailure: RsapiError | undefined;
  /** Each URL's outcome, made once the files are written: a run of 50,000 pages does not hold two objects a page through them. */
  urls: () => UrlOutcome[];
}

/** Sends each URL of the run (those its journal shows done are read back instead), and says on stderr how it went. */
async function createEach(ctx: CommandContext, plan: BulkCreatePlan, journal: Journal | undefined): Promise<CreatedEach> {
  // Requests under way are let finish on Ctrl-C: the client ignores it, createAll stops starting new ones.
  const client = ctx.client({ abortOnInterrupt: false });
  const all = plan.input.urls;
  // The everyday case of a weekly job: said only when asked (-v).
  if (journal?.history.endedAt !== undefined && ctx.globals.verbose) {
    ctx.note(`rsapi: the journal ${journal.path} is of a run that ended (${journal.history.endedAt}); this run starts it afresh`);
  }
  const created = journal?.history.created ?? new Set<string>();
  // Asked three times a URL: not parsed at all when the journal shows nothing created (a first run, a week's new journal).
  const done = created.size === 0 ? () => false : (url: string) => created.has(reportIdentity(url));
  const urls = all.filter((url) => !done(url));
  const skipped = all.length - urls.length;
  for (const line of journal ? resumeLines(journal, all, skipped, plan.resumeWithinMs, client.reports.createTimeoutMs) : []) ctx.note(line);
  const mode = plan.existing ?? 'new';
  // Read before any create, once per project: the reports there for --existing (a report this run makes is never
  // taken for one that was there), and those the journal shows an earlier run of this one created.
  const readings = new Map<string, Reading>();
  const keep = keptForTheRun(plan, mode, created, readings, ctx.outputOptions('report').quiet === true);
  const known = mode !== 'new' || skipped > 0 ? await existingReports(client, mode === 'new' ? all.filter(done) : all, keep) : new Map<string, ApiRecord>();
  const existing = mode === 'new' ? new Map<string, ApiRecord>() : known;
  const single = all.length === 1 && plan.alwaysList !== true;
  // The bar shows under -q too (it is on stderr; -q shapes stdout), but never in a CI log.
  const live = canAnimate(ctx.io) && urls.length > 1;
  const progress = urls.length === 1 ? spinnerProgress(ctx.io, urls[0] ?? '') : await createProgress({ stderr: ctx.io.stderr, live }, urls.length);
  // Records shown on the bar's screen go above it, not onto its line.
  const stdout =
    (live || urls.length === 1) && ctx.io.stdoutIsTTY ? { write: (text: string) => progress.above(() => ctx.io.stdout.write(text)) } : ctx.io.stdout;
  const output = createBulkOutput(stdout, ctx.outputOptions('report'), { single, privacy: plan.privacy });
  const gate = new Gate(plan.gate);
  const say = (line: string) => progress.log(forStderr(line));
  // The client's notes (a 429's retry, a rate limit's wait) go above the bar too, never onto its line.
  const notesBack = ctx.notesThrough((line) => progress.log(line));
  const onInterrupt = () => say('rsapi: interrupted: starting no new request; waiting for the ones under way (Ctrl-C again quits at once)');
  ctx.signal.addEventListener('abort', onInterrupt, { once: true });
  // The reader of stdout went away (`| head -2`): no new URL is started; those under way end as usual.
  const stdoutGone = ctx.stdoutState.gone;
  const release = ctx.stdoutState.hold();
  const onStdoutGone = () => say('rsapi: stdout was closed: starting no new URL; waiting for the ones under way');
  stdoutGone?.addEventListener('abort', onStdoutGone, { once: true });
  // A service answering 5xx to everything is not waited out URL by URL (one URL's own watch is, as ever).
  const breaker = single
    ? undefined
    : new Breaker(client.http.policy.clock, (cause) =>
        say(`rsapi: the service answered ${cause}: starting no new URL; watching the ones under way for up to ${WATCH_AFTER_TRIP_MS / 1000} s`),
      );
  const stopCounting = breaker ? client.http.onAnswer((status) => breaker.answer(status)) : undefined;
  const giveUp = breaker?.giveUp;
  let singleFailure: RsapiError | undefined;
  let unsettledHint: string | undefined;
  // Failures because the service went out of reach are alike: one line per cause at the end, not one per URL.
  const tally = new CauseTally();
  const sentAt = new Map<string, number>();
  // Read once, when the URL is done: its entry goes then (a run of 50,000 pages holds none of the done ones).
  const secondsOf = (url: string) => {
    const at = sentAt.get(url);
    sentAt.delete(url);
    return at === undefined ? undefined : (performance.now() - at) / 1000;
  };
  // What a wait for a lost answer means is said for one URL (or with --verbose); a bulk run counts them in the summary.
  const onSettling = (url: string, windowMs: number, resuming: boolean) => {
    if (!single && !ctx.globals.verbose) return;
    const watching = `watching up to ${Math.ceil(windowMs / 1000)} s for its report`;
    say(
      resuming
        ? `rsapi: ${url}: an earlier run sent it and did not learn its outcome: ${watching}, and sending it only if none shows up`
        : `rsapi: ${url}: no answer in time; the service may still be auditing the page: ${watching} (it is not sent again)`,
    );
  };
  // What tells a redirected page's report, after a lost answer, from the reports of the run's other URLs.
  const ledger = new CreateLedger(plan.knownUrls ?? all, journal?.history.taken ?? []);
  ledger.willSend(urls, journal?.history.unsettled);
  // A resumed run holds every page of its input: the reports an earlier run of it created are read, judged, printed
  // and recorded with the rest (else the run recorded, and the next week compared with, only the pages left to do).
  const place = new Map(all.map((url, index) => [url, index]));
  for (const url of all) {
    if (!done(url)) continue;
    const identity = reportIdentity(url);
    const report = known.get(identity);
    if (report === undefined) {
      plan.ci?.addSkipped(url, `created by an earlier run (journal ${journal?.path}); not found on the service now`);
      continue;
    }
    plan.ci?.addReport(report, gate.check(report), undefined, url);
    const reading = readings.get(identity);
    if (reading) plan.recorder?.addReading(reading);
    else plan.recorder?.add(report);
    await output.write(place.get(url) ?? 0, report);
  }
  // Each in the recorder now: not held through the run (30,000 of them at a resume of 50,000 pages, some 15 MB).
  readings.clear();
  const outcome = await createAll({
    urls,
    concurrency: plan.concurrency,
    timeoutMs: client.reports.createTimeoutMs,
    create: async (report, resending) => {
      sentAt.set(report.url, performance.now());
      return (await useExisting(client, mode, existing, report.url)) ?? client.reports.create(report, { onSettling, ledger, giveUp, resending });
    },
    resume: async (report, earlier, resending) => {
      sentAt.set(report.url, performance.now());
      return (
        (await useExisting(client, mode, existing, report.url)) ?? client.reports.createUnlessStored(report, earlier, { onSettling, ledger, giveUp, resending })
      );
    },
    // useExisting's rule: a report there is re-audited or kept, never another made.
    mayCreate: (url) => mode === 'new' || !existing.has(reportIdentity(url)),
    input: { privacy: plan.privacy, password: plan.password },
    journal,
    ledger,
    stop: stdoutGone ? AbortSignal.any([ctx.noNewRequests, stdoutGone]) : ctx.noNewRequests,
    halt: () => ctx.haltRequests(),
    breaker,
    progress,
    wholeReports: plan.wholeReports,
    onCreated: async (url, index, { report, recovered, matchedBy }, kept) => {
      // Counted in the summary; named one by one only when asked (or for a single URL), and always when
      // taken as a redirected page's: that match is an inference the user should be able to check.
      if (recovered && (single || ctx.globals.verbose || matchedBy !== 'identity')) say(matchLine(url, report, matchedBy));
      const gateFailures = gate.check(report);
      const seconds = secondsOf(url);
      // The outcome's copy: a run of 50,000 pages holds one a page, not two.
      plan.ci?.addReport(kept, gateFailures, seconds, url);
      plan.recorder?.record(report);
      await output.write(place.get(url) ?? index, report);
    },
    onFailed: (url, _index, error) => {
      const seconds = secondsOf(url);
      plan.ci?.addError(url, error, seconds);
      if (single) singleFailure = error;
      else if (tally.add(error) && !ctx.globals.verbose) return;
      else if (error instanceof UnsettledCreateError && !ctx.globals.verbose) {
        // One line a URL; what unsettled means and what to do is said once, at the end (unsettledHint).
        say(`rsapi: ${url}: unsettled: ${error.why}`);
        unsettledHint ??= hintOf(error);
      } else {
        // The same field lines and hint as a single failure gets (exit-codes.ts), under the URL's line.
        say(`rsapi: ${url}: ${error.message}`);
        for (const line of detailLines(error)) say(oneLineForStderr(line));
      }
    },
  }).finally(() => {
    ctx.signal.removeEventListener('abort', onInterrupt);
    stdoutGone?.removeEventListener('abort', onStdoutGone);
    stopCounting?.();
    breaker?.close();
    release();
    notesBack();
    progress.stop();
  });
  const readerGone = stdoutGone?.aborted === true;
  if (!readerGone) await output.end();
  // Every URL done: the journal's run ended, and the next run on its path starts afresh (a week later, say).
  if (
    journal &&
    plan.journalEnds !== false &&
    !ctx.signal.aborted &&
    !readerGone &&
    outcome.notStarted === 0 &&
    outcome.failed === 0 &&
    !outcome.journalFailure
  ) {
    try {
      const carried = await journal.end(all.length);
      if (carried.length > 0) ctx.note(forStderr(carriedLine(journal.path, carried)));
    } catch (error) {
      ctx.note(`rsapi: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const stoppedBy = ctx.signal.aborted
    ? 'interrupted'
    : outcome.journalFailure
      ? 'the journal could not be written'
      : readerGone
        ? 'stdout was closed'
        : outcome.serviceGone !== undefined
          ? `the service stopped answering (${outcome.serviceGone})`
          : undefined;
  if (outcome.journalFailure) ctx.note(`rsapi: ${outcome.journalFailure.message}`);
  for (const line of tally.lines()) ctx.note(forStderr(line));
  if (unsettledHint !== undefined) {
    ctx.note('rsapi: an unsettled URL may have its report: rsapi did not send it again');
    ctx.note(forStderr(`hint: ${unsettledHint}`));
  }
  if (outcome.serviceGone !== undefined) ctx.note(serviceGoneLine(outcome, journal?.path, plan.resumeCommand));
  if (!single || journal || outcome.journalFailure) {
    ctx.note(
      summaryLine(outcome, {
        skipped: journal ? skipped : undefined,
        duplicates: plan.input.duplicates.length,
        invalid: plan.input.invalid.length,
        sitemapsSkipped: plan.input.skippedSitemaps,
        stoppedBy,
        resumeCommand: plan.resumeCommand,
      }),
    );
  }
  // The report each URL's journal line names, by identity (the newest line wins): one pass, not one per URL.
  const journaled = new Map((journal?.history.taken ?? []).map((entry) => [reportIdentity(entry.url), entry.id]));
  const earlier = new Map(all.filter(done).map((url) => [url, createdEarlier(url, journaled, known)]));
  return {
    gate,
    outcome,
    stoppedBy,
    readerGone,
    notStarted: urls.slice(urls.length - outcome.notStarted),
    singleFailure,
    urls: outcomesOf(all, earlier, outcome),
  };
}

/** The run's end: its URLs not started and how it stopped told to its files, then the gate and the files (finishGate). */
async function judgeRun(ctx: CommandContext, plan: BulkCreatePlan, ran: CreatedEach): Promise<BulkCreateRunResult> {
  const { gate, outcome, stoppedBy, singleFailure } = ran;
  for (const url of ran.notStarted) plan.ci?.addSkipped(url, `not started: ${stoppedBy ?? 'interrupted'}`);
  if (ctx.signal.aborted || outcome.notStarted > 0) plan.ci?.stoppedEarly(stoppedBy ?? 'interrupted');
  plan.ci?.pagesHadReports(outcome.refreshed + outcome.kept);
  // One URL fails like any single request: its own error line, hint and exit code.
  if (singleFailure) {
    await plan.ci?.finish(ctx, gate, exitCodeOf(singleFailure));
    throw singleFailure;
  }
  const code = await finishGate(
    ctx,
    gate,
    plan.ci,
    stopCode(ctx.signal.aborted, outcome, ran.readerGone, plan.resumeCommand !== undefined) ?? outcome.firstFailure ?? ExitCode.ok,
  );
  return { code, stoppedBy: outcome.notStarted > 0 ? (stoppedBy ?? 'interrupted') : stoppedBy, urls: ran.urls() };
}

/**
 * How existingReports keeps each report of the run's URLs: a refresh needs only its id; one kept (--existing skip) is
 * shown as it is, whole. One an earlier run created is shown, judged and recorded as this run's are: printed only as
 * its id (-q, as `rsapi audit` runs), it is kept as a created one is (withoutPassedValues, unless the run keeps reports
 * whole), its reading for the history made now (`readings`): a week resumed at 30,000 of 50,000 pages held them whole,
 * 450 MB.
 */
function keptForTheRun(
  plan: BulkCreatePlan,
  mode: ExistingMode,
  created: ReadonlySet<string>,
  readings: Map<string, Reading>,
  quiet: boolean,
): (identity: string, record: ApiRecord) => ApiRecord {
  return (identity, record) => {
    if (!created.has(identity)) return mode === 'skip' ? record : idAndUrl(record);
    if (!quiet || plan.wholeReports) return record;
    const reading = plan.recorder?.readingOf(record);
    if (reading) readings.set(identity, reading);
    return withoutPassedValues(record);
  };
}

/**
 * Each URL's outcome in input order, made when asked. Made here, not in createEach: a function made there would hold
 * all its working state (every closure of a function shares one scope), the reports found there included.
 */
function outcomesOf(all: readonly string[], earlier: ReadonlyMap<string, UrlOutcome>, outcome: BulkCreateOutcome): () => UrlOutcome[] {
  return () => all.map((url) => earlier.get(url) ?? { url, ...(outcome.sent.get(url) ?? { status: 'not started' as const }) });
}

/** A URL the journal shows created: the report it names, and the one the service holds for the URL now. */
function createdEarlier(url: string, journaled: ReadonlyMap<string, string | number>, known: ReadonlyMap<string, ApiRecord>): UrlOutcome {
  const identity = reportIdentity(url);
  return { url, status: 'created earlier', id: journaled.get(identity), report: known.get(identity) };
}

/** `rsapi: https://www.example.com/old -> report 61 example.com/new (...)`: what a lost answer was matched with. */
function matchLine(url: string, report: ApiRecord, matchedBy: MatchedBy | undefined): string {
  const stored = typeof report.url === 'string' ? ` ${report.url}` : '';
  const how =
    matchedBy === 'redirect'
      ? 'the answer was lost; found under the URL the page redirects to'
      : matchedBy === 'elimination'
        ? 'the answer was lost; no report under its URL, taken as the only new report of its project since it was sent, ' +
          'with no other create of the project in doubt (the page redirected)'
        : 'the answer was lost, but the report was created (found by its URL)';
  return `rsapi: ${url} -> report ${String(report.id)}${stored} (${how})`;
}

/** `the service stopped answering (connection refused); 12 URLs not started, 4 unsettled: resume with --journal`. */
function serviceGoneLine(outcome: BulkCreateOutcome, journalPath: string | undefined, resumeCommand: string | undefined): string {
  const resume =
    resumeCommand !== undefined
      ? `run \`${resumeCommand}\` again once it answers: it resumes`
      : journalPath === undefined
        ? 'resume with --journal (a run without one cannot tell what was created)'
        : `resume with --journal ${journalPath} once it answers`;
  return (
    `rsapi: the service stopped answering (${outcome.serviceGone ?? ''}); ` +
    `${plural(outcome.notStarted, 'URL')} not started, ${outcome.unsettled} unsettled: ${resume}`
  );
}

/**
 * Why the run did not try every URL, as an exit code: Ctrl-C, then a failed journal, then the breaker (a service
 * failing everything is a server fault), then a reader gone with URLs left.
 */
function stopCode(interrupted: boolean, outcome: BulkCreateOutcome, readerGone: boolean, journalInHistory: boolean): ExitCodeValue | undefined {
  if (interrupted) return ExitCode.interrupted;
  // A journal that could not be written (a full disk): the history's fault where the journal is the history's (an
  // audit's, beside or in it: 11), else a file the user named that cannot be written, as any other (2). Never 1.
  if (outcome.journalFailure) return journalInHistory ? ExitCode.history : ExitCode.usage;
  if (outcome.tripped && (outcome.notStarted > 0 || outcome.failed > 0)) return ExitCode.server;
  if (readerGone && outcome.notStarted > 0) return ExitCode.stdoutClosed;
  return undefined;
}
