# A region of the core API as a container image, made from the same `npm run build` as everything else.
#   docker build -t core-api .
#   docker run --env-file region.env -p 4000:4000 core-api
# The image runs `node --max-semi-space-size=16 server/dist/main.js` as an unprivileged user, in production mode, with the production
# dependencies only. Configuration is the environment (README, "Production"); /readyz is the readiness check.
# The sign-in web app's static files are in /app/web/dist for a web server or CDN to publish.

# Build stage: every dependency, then the compiled server, the web app and the release directory.
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY server/package.json server/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build -- --release /release

# Run stage: the release directory and its production dependencies, nothing else.
FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000
WORKDIR /app
COPY --from=build /release ./
RUN npm ci --omit=dev --workspace server --no-audit --no-fund && npm cache clean --force
USER node
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# A young generation of 2 × 16 MB (README, Production): V8 would otherwise grow it to 2 × 64 MB and keep it.
CMD ["node", "--max-semi-space-size=16", "server/dist/main.js"]
