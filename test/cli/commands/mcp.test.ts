// `rsapi mcp`'s own settings and plan (src/cli/commands/mcp.ts): the protocol itself is driven in test/e2e/mcp.test.ts.
import { describe, expect, it } from 'vitest';
import { MCP_TIMEOUT_SECONDS, planMcp, useMcpTimeout } from '../../../src/cli/commands/mcp.js';
import { CommandContext } from '../../../src/cli/runtime/context.js';
import { createInvocation } from '../../../src/cli/runtime/invocation.js';
import { planOf } from '../../helpers/plan.js';
import { testTerminal } from '../../helpers/run.js';

function timeoutWith(globals: { timeout?: number }, env: Record<string, string> = {}): number | undefined {
  const { terminal, cleanup } = testTerminal({ env });
  try {
    const ctx = new CommandContext(createInvocation({ terminal, signal: new AbortController().signal }), { color: false, ...globals });
    useMcpTimeout(ctx);
    return ctx.globals.timeout;
  } finally {
    cleanup();
  }
}

describe('rsapi mcp', () => {
  it("answers a stalled service within an MCP client's 60 s: a 15 s timeout unless one is given", () => {
    expect(MCP_TIMEOUT_SECONDS * 3).toBeLessThan(55);
    expect(timeoutWith({})).toBe(MCP_TIMEOUT_SECONDS);
    expect(timeoutWith({ timeout: 40 })).toBe(40);
    expect(timeoutWith({}, { RSAPI_TIMEOUT: '40' })).toBeUndefined();
  });
});

describe('rsapi mcp: argv -> plan', () => {
  it('the read tools, and the write tools with --allow-write; an output flag refused (stdout carries the protocol)', async () => {
    expect(await planOf(['mcp'], planMcp)).toEqual({ allowWrite: false });
    expect(await planOf(['mcp', '--allow-write'], planMcp)).toEqual({ allowWrite: true });
    for (const flag of [['--json'], ['-o', 'csv'], ['-q'], ['--fields', 'id'], ['--jq', '.']]) {
      await expect(planOf(['mcp', ...flag], planMcp), flag.join(' ')).rejects.toThrow(
        /^output flags \(-o, --json, --fields, -q, --jq\) do not apply to rsapi mcp/,
      );
    }
  });
});
