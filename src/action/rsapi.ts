// Running the rsapi CLI the action carries (action/dist/rsapi.mjs, beside the action's own bundle) as a child of the
// action's Node, through @actions/exec: an argv array, never a shell; its stderr (verdicts, annotations) goes to the log.
import { dirname, join } from 'node:path';
import { getExecOutput } from '@actions/exec';

/** The CLI's bundle: beside the file Node runs (`node action/dist/index.cjs`, as the runner starts an action). */
export function cliPath(): string {
  return join(dirname(process.argv[1] ?? '.'), 'rsapi.mjs');
}

export interface CliRun {
  code: number;
  stdout: string;
}

/**
 * `rsapi ARGV` in `cwd` with `env` added to the action's environment. Its stdout is kept (the JSON the action reads)
 * and, unless `quiet`, shown too; its stderr is always shown, so its `::error` and `::warning` lines reach the runner.
 */
export async function runCli(argv: string[], options: { cwd: string; env: Record<string, string>; quiet?: boolean }): Promise<CliRun> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  const result = await getExecOutput(process.execPath, [cliPath(), ...argv], {
    cwd: options.cwd,
    env: { ...env, ...options.env },
    ignoreReturnCode: true,
    silent: true,
    listeners: {
      stdout: (data) => {
        if (!options.quiet) process.stdout.write(data);
      },
      stderr: (data) => process.stderr.write(data),
    },
  });
  return { code: result.exitCode, stdout: result.stdout };
}
