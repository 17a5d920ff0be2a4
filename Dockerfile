# Quire in production: node on the esbuild bundle, embedded PGlite in /data unless DATABASE_URL is set.
#   docker build -t quire .
#   docker run -p 4000:4000 -v quire-data:/data quire

FROM node:20.20-bookworm-slim AS build
WORKDIR /app
# patches/ first: npm ci's postinstall applies them (the postgres.js fix) to node_modules.
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci
COPY . .
RUN npm run build \
 && npm prune --omit=dev

FROM node:20.20-bookworm-slim
ENV NODE_ENV=production \
    PORT=4000 \
    QUIRE_DATA_DIR=/data
WORKDIR /app
# Production dependencies from the build stage, already patched: patch-package is a
# devDependency and cannot run here.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/drizzle ./drizzle
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 4000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself as PID 1: it gets SIGTERM and drains before exiting.
CMD ["node", "dist/main.js"]
