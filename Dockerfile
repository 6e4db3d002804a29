# One image definition for the six apps; the build argument APP picks which one runs:
#   docker build --build-arg APP=gateway -t rental-applications-gateway .
#   (APP is gateway, properties, applications, webhooks, notifications or form)

# --- build: all dependencies, compile TypeScript ------------------------------------------------
FROM node:20-alpine AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- runtime: production dependencies and the selected app's compiled output ---------------------
FROM node:20-alpine AS runtime
# tini as PID 1 forwards signals to node and reaps zombies.
RUN apk add --no-cache tini
ENV NODE_ENV=production
# JSON lines for whatever collects the logs, even from a container given a terminal (-t).
ENV LOG_FORMAT=json
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

ARG APP=gateway
ENV APP=${APP}
# The old space may grow to 128 MB before V8 must collect it. Left to size itself, V8 let a
# service's heap grow to 110 MB between full collections (about 30 MB of it live) and its RSS
# past 200 MB under load; with this its RSS stays near 130 MB at the same throughput. Each of
# the young generation's two halves may grow to 8 MB, not V8's 16: a start-up grows them to the
# full 16, which a process then kept: 15 MB of its RSS, where the CPU per request moved within the
# runs' spread (see docs/benchmarks.md). The local run and the test stack start the apps alike.
# (Set after npm ci, which needs more.)
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
ENTRYPOINT ["/sbin/tini", "--"]
CMD ["node", "scripts/run-app.js"]
