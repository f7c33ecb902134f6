# Flagman server and console in one image.
#   docker build -t flagman .
#   docker run -d -p 3000:3000 -v flagman-data:/var/lib/flagman flagman
# Settings are the FLAGMAN_* environment variables of the README (docker run -e …).

# Build stage: the embedded SQLite driver compiles from source, so it needs a C++ toolchain.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The end-to-end test workspace is installed too; its browser is never needed here.
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY . .
RUN npm ci --no-audit --no-fund && npm run build

# Run stage: no compiler. Tasks clone repositories and run scripts on this machine, so git,
# ssh and python are here; derive an image to add ansible, terraform or other tools.
FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates git openssh-client python3 tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app /app
ENV NODE_ENV=production \
  FLAGMAN_HOST=0.0.0.0 \
  FLAGMAN_PORT=3000 \
  FLAGMAN_DATA_DIR=/var/lib/flagman
RUN mkdir -p /var/lib/flagman && chown node:node /var/lib/flagman
USER node
VOLUME /var/lib/flagman
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/api/ping').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# tini forwards signals, so running tasks get their shutdown grace on `docker stop`.
ENTRYPOINT ["tini", "--"]
CMD ["node", "bin/flagman", "server"]
