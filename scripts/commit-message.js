// The commit habits of CONTRIBUTING.md, checked on every commit by .githooks/commit-msg, which
// `npm ci` and `npm install` install (the `prepare` script sets `git config core.hooksPath
// .githooks`): a subject under 72 characters in the imperative, a blank line, then a body that
// says why. Whether a commit holds one change is left to its author and its reviewer.
'use strict';

const fs = require('node:fs');

/** A subject must be shorter than this. */
const SUBJECT_LIMIT = 72;
/** Subjects git writes itself, which these habits leave alone. */
const WRITTEN_BY_GIT = /^(Merge |Revert "|fixup! |squash! |amend! )/;
/** Imperatives that look like a past tense, a gerund or a third person. */
const IMPERATIVES = new Set([
  'alias',
  'bias',
  'bleed',
  'breed',
  'bring',
  'cling',
  'embed',
  'exceed',
  'feed',
  'focus',
  'heed',
  'need',
  'ping',
  'proceed',
  'seed',
  'shed',
  'speed',
  'spring',
  'string',
  'succeed',
  'swing',
]);

/** The message as git will store it: comments and everything below a verbose commit's scissors left out. */
function stored(message) {
  const scissors = message.search(/^# -+ >8 -+$/m);
  const kept = scissors < 0 ? message : message.slice(0, scissors);
  return kept
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n')
    .replace(/\s+$/, '');
}

/** Why the first word of a subject does not read as an imperative ("Add", not "Added" or "Adds"), or null. */
function notImperative(subject) {
  const word = (/^[A-Za-z]+/.exec(subject) ?? [''])[0].toLowerCase();
  if (word === '' || IMPERATIVES.has(word)) return null;
  if (/ed$/.test(word)) return `"${word}" is a past tense`;
  if (/ing$/.test(word)) return `"${word}" is a gerund`;
  if (/[^su]s$/.test(word)) return `"${word}" is a third person`;
  return null;
}

/** What is wrong with a commit message, one sentence each; none for a good one. */
function commitMessageProblems(message) {
  const [subject = '', separator, ...body] = stored(message).split('\n');
  if (WRITTEN_BY_GIT.test(subject)) return [];
  const problems = [];
  if (subject.trim() === '') return ['the message is empty: write a subject line, a blank line and why'];
  if (subject.length >= SUBJECT_LIMIT) {
    problems.push(`the subject has ${subject.length} characters: keep it under ${SUBJECT_LIMIT}, and put the rest in the body`);
  }
  const tense = notImperative(subject);
  if (tense) problems.push(`the subject should say what the commit does in the imperative ("Add", "Fix", "Move"): ${tense}`);
  if (/\.$/.test(subject)) problems.push('the subject should not end with a full stop');
  if (separator !== undefined && separator.trim() !== '') {
    problems.push('the subject should be followed by a blank line, then the body');
  } else if (body.every((line) => line.trim() === '')) {
    problems.push('the message has no body: after a blank line, say why the change is made');
  }
  return problems;
}

module.exports = { SUBJECT_LIMIT, commitMessageProblems };

if (require.main === module) {
  const problems = commitMessageProblems(fs.readFileSync(process.argv[2], 'utf8'));
  for (const problem of problems) process.stderr.write(`commit-msg: ${problem}\n`);
  if (problems.length > 0) {
    process.stderr.write('commit-msg: see CONTRIBUTING.md, "Commits"\n');
    process.exitCode = 1;
  }
}
