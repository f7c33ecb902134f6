#!/usr/bin/env bash
# Installs dependencies, builds the server and the console, and starts Flagman on the
# embedded SQLite database (./data unless FLAGMAN_DATA_DIR says otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npm run build
exec node bin/flagman server
