// The tool table of `rsapi mcp` (src/mcp/tools.ts): its arguments are the CLI flags' words, and it fits its budget.
import { describe, expect, it } from 'vitest';
import { Command } from '@commander-js/extra-typings';
import { declareList } from '../../src/cli/commands/reports/list.js';
import { declareStats } from '../../src/cli/commands/reports/stats.js';
import type { ParentCommand } from '../../src/cli/runtime/handler.js';
import { listing, offeredTools } from '../../src/mcp/server.js';
import { TOOLS } from '../../src/mcp/tools.js';

const schemaOf = (name: string) =>
  listing(TOOLS.find((tool) => tool.name === name)!).inputSchema as { properties: Record<string, { description?: string; enum?: string[] }> };

describe('the MCP tools', () => {
  it("take each argument's description and choices from the CLI flag it stands for", () => {
    const list = declareList(new Command() as unknown as ParentCommand);
    const flag = (name: string) => list.options.find((option) => option.long === name)!;
    const properties = schemaOf('list_reports').properties;
    expect(properties.project?.description).toBe(flag('--project').description);
    expect(properties.result).toEqual({ type: 'string', description: flag('--result').description, enum: flag('--result').argChoices });
    expect(properties.sort_by?.enum).toEqual(flag('--sort-by').argChoices);
    const stats = declareStats(new Command() as unknown as ParentCommand);
    expect(TOOLS.find((tool) => tool.name === 'report_stats')?.description).toBe(`${stats.description()}.`);
    expect(schemaOf('report_stats').properties.by_project?.description).toBe(stats.options.find((option) => option.long === '--by')?.description);
  });

  it('are at most 8 reads and 3 writes, the writes offered only when allowed, in under 12 KB of tools/list either way', () => {
    const reads = offeredTools({ allowWrite: false });
    // The contract's read tools, exactly: an agent finds each of its questions one call away, and no more.
    expect(reads.map((tool) => tool.name)).toEqual([
      'list_reports',
      'get_report',
      'report_stats',
      'check_stats',
      'history_runs',
      'history_trend',
      'history_diff',
      'list_projects',
    ]);
    expect(reads.every((tool) => !tool.writes && tool.hints.readOnlyHint)).toBe(true);
    const all = offeredTools({ allowWrite: true });
    expect(all.filter((tool) => tool.writes).map((tool) => tool.name)).toEqual(['create_reports', 'refresh_reports', 'delete_reports']);
    for (const tools of [reads, all]) expect(Buffer.byteLength(JSON.stringify({ tools: tools.map(listing) }))).toBeLessThan(12 * 1024);
  });

  it('have unique names in snake_case and descriptions of at most two sentences', () => {
    expect(new Set(TOOLS.map((tool) => tool.name)).size).toBe(TOOLS.length);
    for (const tool of TOOLS) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(tool.description.length, tool.name).toBeLessThan(300);
    }
  });
});
