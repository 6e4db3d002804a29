// The local inbox `npm start` runs when no SMTP_URL is given: MailDev, its mail kept owner-only.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { startChild } = require('./children');
const { ROOT } = require('./launcher');
const { portOr } = require('./ports');

/** The local inbox's SMTP and web ports, MailDev's own defaults, when free. */
const DEFAULT_INBOX_SMTP_PORT = 1025;
const DEFAULT_INBOX_WEB_PORT = 1080;
/** The inbox's mail (names, form links): kept from one run to the next, readable by its owner only. */
const INBOX_DIR = path.join(ROOT, '.data', 'inbox');
/** Files and folders MailDev creates while this mask is set are the owner's alone (0600, 0700). */
const OWNER_ONLY_UMASK = 0o077;

/**
 * Without SMTP_URL, a local mail server with a web inbox (MailDev, from node_modules) that the
 * notifications service sends to: nothing leaves the machine. Returns the inbox's URL, or null.
 */
async function startInbox(env) {
  if (process.env.SMTP_URL) return null;
  const smtpPort = await portOr(DEFAULT_INBOX_SMTP_PORT);
  const webPort = await portOr(DEFAULT_INBOX_WEB_PORT);
  const maildevDir = path.join(ROOT, 'node_modules', 'maildev');
  const maildev = path.join(maildevDir, require(path.join(maildevDir, 'package.json')).bin.maildev);
  const args = [maildev, '--ip', '127.0.0.1', '--web-ip', '127.0.0.1', '--smtp', String(smtpPort), '--web', String(webPort)];
  // MailDev writes each message to a file of its own (in its temporary folder when given none),
  // readable by every user of the machine: here they are the owner's alone.
  fs.mkdirSync(INBOX_DIR, { recursive: true });
  fs.chmodSync(INBOX_DIR, 0o700);
  args.push('--mail-directory', INBOX_DIR);
  const umask = process.umask(OWNER_ONLY_UMASK);
  try {
    startChild('inbox', args, env);
  } finally {
    process.umask(umask);
  }
  env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
  return `http://localhost:${webPort}`;
}

module.exports = { startInbox };
