# syntax=docker/dockerfile:1
# registry: one image for every role (ROLE=api|worker|all), `node dist/src/main.js`.
#   docker build -t registry:dev .
#   docker run -p 8080:8080 -e HOST=0.0.0.0 -e AUTH_FILE=/auth.ini -v "$PWD/auth.ini:/auth.ini:ro" registry:dev
# better-sqlite3 (and msgpackr-extract, via bull) are native modules: they are compiled in stages
# that have python3/make/g++, and the runtime stage only copies the result.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- toolchain for native modules -------------------------------------------------------------
FROM ${NODE_IMAGE} AS toolchain
# Unpinned on purpose: bookworm point releases drop old versions, and the base tag fixes the suite.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# Build against the headers shipped in the image instead of downloading them.
ENV npm_config_nodedir=/usr/local \
    npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false
WORKDIR /app

# --- production dependencies only (compiled here, copied into the runtime) -------------------
FROM toolchain AS deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# --- compile TypeScript ----------------------------------------------------------------------
FROM toolchain AS build
COPY package.json package-lock.json ./
RUN npm ci
# tsconfig compiles src/, test/, scripts/ and cluster/ alike; .dockerignore trims the context.
COPY . .
RUN npm run build

# --- runtime ---------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
# Only the node itself: dist/src, and the auction module (docs/tenders.md §Auction); tests and other scripts stay out.
COPY --from=build --chown=root:root /app/dist/src ./dist/src
COPY --from=build --chown=root:root /app/dist/scripts/auction ./dist/scripts/auction
COPY --from=build --chown=root:root /app/dist/scripts/cli.js ./dist/scripts/cli.js
COPY --chown=root:root package.json ./
# The code is root-owned and read-only to the app; only ./data (the default sqlite: store for
# single-container runs) is writable. Kubernetes runs with a read-only root filesystem and MongoDB.
RUN mkdir -p /app/data && chown 1000:1000 /app/data
# The image's `node` user, numeric so that runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080
# No HEALTHCHECK: orchestrators probe /healthz and /readyz themselves.
# SIGTERM goes straight to node (no shell, no npm), which drains and exits.
CMD ["node", "dist/src/main.js"]
