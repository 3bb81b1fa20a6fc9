// Tallies kept for the whole set of reports and, with --by project, for each project: the grouping both stats share.
import type { ServiceRecord } from '../types.js';

/** One tally for the whole set and, when grouping, one a project, each made by `make` when first needed. */
export class ProjectGroups<Tally> {
  readonly all: Tally;
  private readonly groups = new Map<string, Tally>();

  constructor(
    private readonly byProject: boolean,
    private readonly make: () => Tally,
  ) {
    this.all = make();
  }

  /** The tallies a record counts in: the whole set's and, when grouping, its project's ('' for none). */
  talliesOf(record: ServiceRecord): Tally[] {
    if (!this.byProject) return [this.all];
    const project = typeof record.project === 'string' || typeof record.project === 'number' ? String(record.project) : '';
    let group = this.groups.get(project);
    if (!group) {
      group = this.make();
      this.groups.set(project, group);
    }
    return [this.all, group];
  }

  /** Each project's tally, by name ('' for reports without a project, last). */
  perProject(): [string, Tally][] {
    return [...this.groups.entries()].sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)));
  }
}
