// Free ports for what `npm start` runs: a default one when it is free, else any.
'use strict';

const net = require('node:net');

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function anyFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `port` when it is free, else any free port. */
async function portOr(port) {
  return (await portIsFree(port)) ? port : anyFreePort();
}

module.exports = { anyFreePort, portIsFree, portOr };
