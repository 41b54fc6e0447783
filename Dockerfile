# syntax=docker/dockerfile:1
# Parts Stock Search API: the `api` and `indexer` services of docker-compose.yml run this image.

# --- build: all dependencies, TypeScript -> dist/ ---------------------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY indexer ./indexer
COPY scripts ./scripts
RUN npm run build
# The dashboard: web/ -> web/dist, served from dist/web/dist (src/web/web-pages.ts looks two levels up).
COPY web ./web
RUN npm run build:web && mkdir -p dist/web && cp -r web/dist dist/web/dist
# The migration runner reads ../../sql from dist/src/db/, i.e. dist/sql; mappings sit beside them.
COPY sql ./dist/sql
COPY mappings ./dist/mappings

# --- production dependencies only ---------------------------------------------------------------
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime: non-root, no compiler, no dev dependencies ----------------------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/.data
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
# DATA_DIR holds the embedded database and generated secrets when no DATABASE_URL is given.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
# No HEALTHCHECK here: the image runs both the API and the indexer, so each service declares its
# own in docker-compose.yml (the API's is GET /ready).
CMD ["node", "dist/src/main.js"]
