// What every part of `npm start` shares: the checkout it runs, and how it speaks to the person
// at the terminal (each line prefixed `[start]`).
'use strict';

const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

const NAME = 'start';
const say = (message) => process.stdout.write(`[${NAME}] ${message}\n`);
const complain = (message) => process.stderr.write(`[${NAME}] ${message}\n`);

function seconds(ms) {
  const total = Math.round(ms / 1000);
  return total < 60 ? `${total} s` : `${Math.floor(total / 60)} min ${total % 60} s`;
}

module.exports = { NAME, ROOT, complain, say, seconds };
