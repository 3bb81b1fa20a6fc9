// The pages that name the MCP tools (README's "Agents", docs/mcp.md) name exactly the tools the server offers.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/mcp/tools.js';

const ROOT = new URL('../../', import.meta.url);
const toolNames = (text: string) => [...new Set([...text.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((match) => match[1]))];
const section = (text: string, heading: string) => text.slice(text.indexOf(heading), text.indexOf('\n## ', text.indexOf(heading) + 1));

describe('the pages naming the MCP tools', () => {
  const offered = TOOLS.map((tool) => tool.name);

  it("README's Agents section names every tool the server offers, and no other", () => {
    const agents = section(readFileSync(new URL('README.md', ROOT), 'utf8'), '## Agents');
    expect(toolNames(agents)).toEqual(offered);
  });

  it('docs/mcp.md has a table row for every tool, and no other', () => {
    const rows = readFileSync(new URL('docs/mcp.md', ROOT), 'utf8')
      .split('\n')
      .flatMap((line) => /^\| `([a-z_]+)` \|/.exec(line)?.[1] ?? []);
    expect(rows).toEqual(offered);
  });
});
