#!/usr/bin/env node
// Keys for the form, derived from the keys the operator already holds; reads them from the
// environment (never from the command line, which other users of the machine can see) and prints
// the result on stdout:
//
//   FORM_SEALING_KEYS=... node scripts/form-keys.js public
//     The form's FORM_SEALING_PUBLIC_KEY: the id and X25519 public key of FORM_SEALING_KEYS' first
//     entry, the one the form seals to.
//
//   FIELD_ENCRYPTION_KEYS=... node scripts/form-keys.js link-keys
//     FORM_LINK_KEYS entries (same ids) holding the MAC keys applicants' form links were signed
//     with before FORM_LINK_KEYS existed, derived from FIELD_ENCRYPTION_KEYS as they were then:
//     listed after a new key, they keep the links issued then working.
//
// Only node:crypto, so it runs in any checkout (or beside any Node 20) without a build.
'use strict';

const { Buffer } = require('node:buffer');
const { createPrivateKey, createPublicKey, hkdfSync } = require('node:crypto');

// What a raw 32-byte X25519 key is wrapped in to be read as PKCS#8, and its public key's SPKI prefix (RFC 8410).
const PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_PREFIX_BYTES = 12;

/** `id:base64key` entries of 32-byte keys, as the apps read them; refuses without quoting a key. */
function ring(name) {
  const text = process.env[name];
  if (!text) throw new Error(`${name} is not set`);
  return text.split(',').map((entry, index) => {
    const separator = entry.indexOf(':');
    const key = Buffer.from(entry.slice(separator + 1), 'base64');
    if (separator < 1 || key.length !== 32) throw new Error(`${name} entry ${index + 1} must be id:base64key, the key 32 bytes`);
    return { id: entry.slice(0, separator), key };
  });
}

const COMMANDS = {
  public: () => {
    const [{ id, key }] = ring('FORM_SEALING_KEYS');
    const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, key]), format: 'der', type: 'pkcs8' });
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    return `${id}:${spki.subarray(SPKI_PREFIX_BYTES).toString('base64')}`;
  },
  'link-keys': () =>
    ring('FIELD_ENCRYPTION_KEYS')
      .map(
        ({ id, key }) =>
          `${id}:${Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'applicant form link tokens', 32)).toString('base64')}`,
      )
      .join(','),
};

const command = COMMANDS[process.argv[2]];
if (!command) {
  process.stderr.write(`usage: node scripts/form-keys.js ${Object.keys(COMMANDS).join('|')} (keys from the environment)\n`);
  process.exit(2);
}
try {
  process.stdout.write(`${command()}\n`);
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
