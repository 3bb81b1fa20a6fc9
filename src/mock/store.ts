// The mock service's in-memory database: reports and projects, and the changes the endpoints make to them.

import { formatTimestamp, projectForUrl, seedAudit, seededReports, type MockProject, type MockReport, type PageAudit, type Privacy } from './data.js';

export interface NewReportInput {
  url: string;
  privacy: Privacy;
  password?: string;
}

export interface ReportChanges {
  privacy?: Privacy;
  password?: string;
  regenerate: boolean;
}

/** How a flavor's service stores a report: which URL it keeps for the one sent, its project, and its audit. */
export interface StorePolicy {
  seed(count: number): MockReport[];
  storedUrl(sentUrl: string): string;
  projectOf(storedUrl: string): string;
  audit(storedUrl: string): PageAudit;
  /** The audit a regeneration leaves on a stored report. */
  reaudit(report: MockReport): PageAudit;
}

/** The API document's service: the URL kept as sent, the project its host without `www.`. */
export const SEED_STORE_POLICY: StorePolicy = {
  seed: seededReports,
  storedUrl: (sentUrl) => sentUrl,
  projectOf: projectForUrl,
  audit: seedAudit,
  // Seeded scores are not a function of the URL; a regeneration keeps the stored one, so only the dates move.
  reaudit: (report) => ({ result: report.result, score: report.score }),
};

interface StoredProject {
  project: string;
  created_at: string;
}

export class MockStore {
  private readonly reportsById = new Map<number, MockReport>();
  private readonly projectsByName = new Map<string, StoredProject>();
  private nextId = 1;
  private changes = 0;

  constructor(
    seedCount: number,
    private readonly policy: StorePolicy = SEED_STORE_POLICY,
  ) {
    for (const report of policy.seed(seedCount)) this.insert(report);
  }

  /** Moves on with every change to the reports, so a list computed from them can be kept until then. */
  get revision(): number {
    return this.changes;
  }

  reports(): MockReport[] {
    return [...this.reportsById.values()].map((report) => ({ ...report }));
  }

  projects(): MockProject[] {
    return [...this.projectsByName.values()].map((project) => ({
      ...project,
      reports_count: this.countReportsOf(project.project),
    }));
  }

  findReport(id: number): MockReport | undefined {
    const report = this.reportsById.get(id);
    return report === undefined ? undefined : { ...report };
  }

  createReport(input: NewReportInput, now: Date): MockReport {
    this.changes++;
    const url = this.policy.storedUrl(input.url);
    const timestamp = formatTimestamp(now);
    const report: MockReport = {
      id: this.nextId,
      url,
      project: this.policy.projectOf(url),
      ...this.policy.audit(url),
      privacy: input.privacy,
      generated_at: timestamp,
      created_at: timestamp,
      updated_at: timestamp,
      ...(input.password === undefined ? {} : { password: input.password }),
    };
    this.insert(report);
    return { ...report };
  }

  /** Applies the changes of an update; answers undefined when no such report exists. */
  updateReport(id: number, changes: ReportChanges, now: Date): MockReport | undefined {
    const report = this.reportsById.get(id);
    if (report === undefined) return undefined;
    this.changes++;
    const timestamp = formatTimestamp(now);
    let changed = false;
    if (changes.privacy !== undefined && changes.privacy !== report.privacy) {
      report.privacy = changes.privacy;
      changed = true;
    }
    if (changes.password !== undefined && changes.password !== report.password) {
      report.password = changes.password;
      changed = true;
    }
    if (changes.regenerate) {
      Object.assign(report, this.policy.reaudit(report));
      report.generated_at = timestamp;
      changed = true;
    }
    if (changed) report.updated_at = timestamp;
    return { ...report };
  }

  deleteReport(id: number): boolean {
    this.changes++;
    return this.reportsById.delete(id);
  }

  /** Deletes a project and every report in it; answers false when no such project exists. */
  deleteProject(name: string): boolean {
    this.changes++;
    if (!this.projectsByName.delete(name)) return false;
    for (const [id, report] of this.reportsById) {
      if (report.project === name) this.reportsById.delete(id);
    }
    return true;
  }

  private insert(report: MockReport): void {
    this.reportsById.set(report.id, report);
    this.nextId = Math.max(this.nextId, report.id + 1);
    if (!this.projectsByName.has(report.project)) {
      this.projectsByName.set(report.project, { project: report.project, created_at: report.created_at });
    }
  }

  private countReportsOf(project: string): number {
    let count = 0;
    for (const report of this.reportsById.values()) if (report.project === project) count += 1;
    return count;
  }
}
