// The CLI's messages in an MCP tool's words: flags as the tool's arguments, commands as tools (issue 46 point 14).
import { describe, expect, it } from 'vitest';
import { inToolWords } from '../../src/mcp/tool-words.js';

const ARGS = [{ name: 'project', flag: '--project' }, { name: 'since', flag: '--since' }, { name: 'job', flag: '--job' }, { name: 'url' }];

describe('inToolWords', () => {
  it('names a flag as its argument, with its value placeholder gone, and keeps a value given after it', () => {
    expect(inToolWords('give a URL, --project NAME or --job NAME', ARGS)).toBe('give a URL, project or job');
    expect(inToolWords('did you mean --project b.example.com?', ARGS)).toBe('did you mean project b.example.com?');
    expect(inToolWords('its newest reading is of run 2: a longer --since reaches it', ARGS)).toBe('its newest reading is of run 2: a longer since reaches it');
  });

  it('leaves a flag the tool has no argument for, and a longer flag that starts alike', () => {
    expect(inToolWords('narrow with --check title', ARGS)).toBe('narrow with --check title');
    expect(inToolWords('--project-file x', ARGS)).toBe('--project-file x');
  });

  it('names a CLI command that has a tool as that tool', () => {
    expect(inToolWords('`rsapi history runs` lists the runs', ARGS)).toBe('`history_runs` lists the runs');
    expect(inToolWords('rsapi reports list --all', ARGS)).toBe('list_reports --all');
  });
});
