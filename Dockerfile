# svc-gitops as a container image. Build: `docker build -t svc-gitops .`; run in the directory
# that holds the desired state, with the dashboard settings from the environment:
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" \
#     -e SVC_URL -e SVC_USER -e SVC_APP_PASSWORD svc-gitops plan
# The image holds exactly what `npm pack` ships, installed as users install it (`npm install -g`).

# Build stage: the package tarball, built from the lockfile.
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY src ./src
COPY schemas ./schemas
COPY examples ./examples
COPY README.md LICENSE CHANGELOG.md ./
# `npm pack` runs the `prepack` build, so the tarball always holds a fresh dist/.
RUN npm pack --pack-destination /tmp \
    && mv /tmp/svc-gitops-*.tgz /tmp/svc-gitops.tgz

# Run stage: the packed CLI and its runtime dependencies only, as the unprivileged `node` user.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    NO_UPDATE_NOTIFIER=1
COPY --from=build /tmp/svc-gitops.tgz /tmp/svc-gitops.tgz
RUN npm install -g --omit=dev --no-audit --no-fund /tmp/svc-gitops.tgz \
    && rm /tmp/svc-gitops.tgz \
    && npm cache clean --force
USER node
WORKDIR /work
ENTRYPOINT ["svc-gitops"]
CMD ["--help"]
