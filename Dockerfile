# A region of the core API as a container image, made from the same `npm run build` as everything else.
#   docker build -t core-api .
#   docker run --env-file region.env -p 4000:4000 core-api
# The image runs `node --max-semi-space-size=16 server/dist/main.js` as an unprivileged user, in production mode, with
# the production dependencies only. Configuration is the environment (README, "Production"); /healthz is the liveness
# check (HEALTHCHECK below), /readyz the readiness check.
# The sign-in web app's static files are in /app/web/dist for a web server or CDN to publish.

# Both stages start from the same base image, pinned by digest (node:24-bookworm-slim, Node 24.18.0): a rebuild
# gets the same operating system and Node, never whatever the tag points to that day. To move to a newer one:
#   docker buildx imagetools inspect node:24-bookworm-slim   # the index digest, "Digest: sha256:..."
# and replace the digest in both FROM lines (server/test/runtime/container-image.test.ts checks the pin).

# Build stage: every dependency, then the compiled server, the web app and the release directory, and in it the
# production dependencies, installed from the packages the first install left in npm's cache (--offline).
FROM node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY server/package.json server/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build -- --release /release && cd /release && npm ci --omit=dev --offline --no-audit --no-fund

# Run stage: the release directory with its production dependencies, copied; nothing is installed here.
FROM node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000
WORKDIR /app
COPY --from=build /release ./
USER node
EXPOSE 4000
# Liveness: /healthz (the process answers; it does not touch the database) with bash's own TCP client, a few
# milliseconds of CPU per probe instead of a Node process (0.25 s, 85 MB). Readiness (/readyz, which checks the
# database) is for the load balancer or orchestrator to probe over HTTP (README, "Production").
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-4000} && printf 'GET /healthz HTTP/1.0\\r\\nHost: 127.0.0.1\\r\\n\\r\\n' >&3 && read -r -t 2 status <&3 && [[ $status == 'HTTP/1.1 200 '* ]]"]
# A young generation of 2 × 16 MB (README, Production): V8 would otherwise grow it to 2 × 64 MB and keep it.
CMD ["node", "--max-semi-space-size=16", "server/dist/main.js"]
