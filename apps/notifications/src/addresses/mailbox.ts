import { domainToASCII } from 'node:url';

/**
 * Providers whose mailboxes ignore dots in the local part, by the domain every alias of theirs
 * is counted under.
 */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an address reaches, as the caps, the confirmations and the suppression list count
 * it: lower-cased; the domain in its ASCII (A-label) form, without a trailing dot; the local part
 * without a `+tag` (every big provider delivers `ada+x@` to `ada@`), and without dots where the
 * provider ignores them. Two strings of one mailbox are one; two mailboxes counted as one only
 * share a limit, which errs on the side of sending less.
 */
export function canonicalMailbox(email: string): string {
  const address = email.trim().normalize('NFC').toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1) return address;
  const domain = asciiDomain(address.slice(at + 1));
  let local = address.slice(0, at).split('+')[0] || address.slice(0, at);
  const provider = DOTLESS_DOMAINS[domain];
  if (provider) local = local.replaceAll('.', '');
  return `${local}@${provider ?? domain}`;
}

/** The domain's A-label form; the domain as it is when it is no valid name. */
function asciiDomain(domain: string): string {
  const trimmed = domain.replace(/\.+$/, '');
  return domainToASCII(trimmed).toLowerCase() || trimmed;
}

/**
 * The address as a page may name it to whoever holds a link of an e-mail to it: enough for its
 * owner to know it (`d***@example.com`), too little for anyone else to learn it.
 */
export function maskedMailbox(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.trim().slice(0, 1)}***@${email
    .slice(at + 1)
    .trim()
    .toLowerCase()}`;
}
