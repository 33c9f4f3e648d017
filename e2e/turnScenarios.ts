// Small scenarios the issue-5 specs start from (no steps: the tests play the turns).

const LAYER = `# A few tools on, the rest discoverable, one off.
[conversation.tools.'*']
enable = "discoverable"

[conversation.tools.fs_read_file]
source = "local"
enable = "on"
summary = "Read a file from the workspace."
[conversation.tools.fs_read_file.parameters.path]
type = "string"
required = true
summary = "Path relative to the workspace root."

[conversation.tools.git_status]
source = "local"
enable = "on"
summary = "Show the working tree status."

[conversation.tools.deploy_staging]
source = "local"
summary = "Deploy a branch to the staging environment."
[conversation.tools.deploy_staging.parameters.branch]
type = "string"
required = true
summary = "Branch to deploy."

[conversation.tools.deploy_logs]
source = "local"
summary = "Fetch the logs of the last deploy of an environment."
[conversation.tools.deploy_logs.parameters.environment]
type = "string"
required = true
summary = "staging or production"

[conversation.tools.rollback_release]
source = "local"
summary = "Roll back the last release."

[conversation.tools.drop_database]
source = "local"
enable = "off"
summary = "Drop the deploy database."
`;

export function turnLab(options: { name?: string; provider?: string; promotedPosition?: string } = {}): string {
  const policy: string[] = [];
  if (options.provider) policy.push(`provider = "${options.provider}"`);
  if (options.promotedPosition) policy.push(`promoted_position = "${options.promotedPosition}"`);
  return [
    `name = "${options.name ?? 'Turn lab'}"`,
    ...(policy.length > 0 ? ['', '[policy]', ...policy] : []),
    '',
    '[[layers]]',
    'name = "workspace"',
    `text = '''\n${LAYER}'''`,
    '',
  ].join('\n');
}

/** The same catalogue with one turn already played: search, promotion, call, reply. */
export function turnLabWithTurn(options: { provider?: string; promotedPosition?: string } = {}): string {
  return `${turnLab(options)}
[[steps]]
command = "jp q 'Why did the deploy fail?'"

  [[steps.cycles]]
    [[steps.cycles.calls]]
    tool = "search_tools"
    args = { query = "deploy logs", limit = 2 }

  [[steps.cycles]]
    [[steps.cycles.calls]]
    tool = "deploy_logs"
    args = { environment = "staging" }

  [[steps.cycles]]
  reply = "It failed on a migration."
`;
}
