// The tool table of `rsapi mcp`, in the order tools/list gives them: the reads, then the writes (--allow-write only).
// A new tool is one entry here and one module under tools/.
import type { McpTool } from './tool.js';
import { checkStats, reportStats } from './tools/stats.js';
import { createReports } from './tools/create-reports.js';
import { deleteReports } from './tools/delete-reports.js';
import { getReport } from './tools/get-report.js';
import { historyDiff, historyTrend } from './tools/history.js';
import { historyRuns } from './tools/history-runs.js';
import { listProjects } from './tools/list-projects.js';
import { listReports } from './tools/list-reports.js';
import { refreshReports } from './tools/refresh-reports.js';

export const TOOLS: readonly McpTool[] = [
  listReports,
  getReport,
  reportStats,
  checkStats,
  historyRuns,
  historyTrend,
  historyDiff,
  listProjects,
  createReports,
  refreshReports,
  deleteReports,
];
