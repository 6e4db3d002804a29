# One image definition for the six apps; the build argument APP picks which one runs:
#   docker build --build-arg APP=gateway -t rental-applications-gateway .
#   (APP is gateway, properties, applications, webhooks, notifications or form)
#
# The base images are build arguments: where no registry can be reached, scripts/containers.sh
# builds stand-ins of both from packages and passes them (docs/operators/containers.md).
# NODE_IMAGE builds; RUNTIME_IMAGE runs, with only the node binary taken from NODE_IMAGE, so that
# no npm, no compiler and no package manager's cache reach the image that runs.
ARG NODE_IMAGE=node:24.22.3-bookworm-slim
ARG RUNTIME_IMAGE=debian:bookworm-slim

# --- build: all dependencies, compile TypeScript ------------------------------------------------
FROM ${NODE_IMAGE} AS build
# Where the registry is reached through a TLS-inspecting proxy, the proxy's CA for npm: a file the
# build mounts (scripts/containers.sh passes the machine's). Neither stage that takes it is shipped.
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# What the apps' build reads, alone: a change elsewhere leaves this stage cached.
COPY nest-cli.json tsconfig.json tsconfig.build.json ./
COPY scripts/apps.js scripts/
COPY libs libs
COPY apps apps
# The six apps alone (`npm run build` compiles the bench and the client package too).
RUN for app in $(node -p "require('./scripts/apps').APPS.join(' ')"); do npx nest build "$app"; done

# --- dependencies: the production ones only, without what no app reads at run time ---------------
FROM ${NODE_IMAGE} AS dependencies
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
# No install script runs: the production dependencies' two (a usage counter's and protobufjs's
# notice) do nothing the apps need.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY docker/prune-node-modules.sh /usr/local/bin/
RUN prune-node-modules.sh node_modules

# --- runtime: node, tini, the production dependencies and the selected app's compiled output ------
FROM ${RUNTIME_IMAGE} AS runtime
# tini as PID 1 forwards signals to node and reaps zombies. The "node" user (1000:1000) is the one
# the chart runs the apps as.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt /var/log/dpkg.log \
  && groupadd --gid 1000 node \
  && useradd --uid 1000 --gid node --home-dir /app --no-create-home --shell /usr/sbin/nologin node
COPY --from=build /usr/local/bin/node /usr/local/bin/node
ENV NODE_ENV=production
# JSON lines for whatever collects the logs, even from a container given a terminal (-t).
ENV LOG_FORMAT=json
WORKDIR /app
COPY package.json ./
COPY --from=dependencies /app/node_modules ./node_modules

ARG APP=gateway
ENV APP=${APP}
# The old space may grow to 128 MB before V8 must collect it. Left to size itself, V8 let a
# service's heap grow to 110 MB between full collections (about 30 MB of it live) and its RSS
# past 200 MB under load; with this its RSS stays near 130 MB at the same throughput. Each of
# the young generation's two halves may grow to 8 MB, not V8's 16: a start-up grows them to the
# full 16, which a process then kept: 15 MB of its RSS, where the CPU per request moved within the
# runs' spread (see docs/benchmarks.md). The local run and the test stack start the apps alike.
ENV NODE_OPTIONS="--max-old-space-size=128 --max-semi-space-size=8"
COPY --from=build /app/dist/apps/${APP} ./dist/apps/${APP}
COPY scripts/apps.js scripts/run-app.js ./scripts/
RUN node scripts/run-app.js --check "$APP"

USER node
# The gateway serves the API on PORT (default 3000), the form its pages on FORM_PORT (3003); every
# app serves its health and metrics on HTTP_PORT (defaults 3001 properties, 3002 applications,
# 3004 form, 3005 webhooks, 3006 notifications, 3010 gateway) and the services talk to the rest
# over RabbitMQ.
EXPOSE 3000 3001 3002 3003 3004 3005 3006 3010
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "scripts/run-app.js"]
