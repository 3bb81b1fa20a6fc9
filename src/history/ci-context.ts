// The CI job a run belongs to, from GitHub Actions' or GitLab CI's own variables: commit, branch, the job's URL.
import type { CiContext } from './types.js';

export function ciContextOf(env: NodeJS.ProcessEnv): CiContext | undefined {
  if (env.GITHUB_ACTIONS === 'true') {
    const job =
      env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
        ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
        : undefined;
    return { provider: 'github', commit: env.GITHUB_SHA, branch: env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME, job };
  }
  if (env.GITLAB_CI === 'true') {
    return { provider: 'gitlab', commit: env.CI_COMMIT_SHA, branch: env.CI_COMMIT_REF_NAME, job: env.CI_JOB_URL };
  }
  return undefined;
}
