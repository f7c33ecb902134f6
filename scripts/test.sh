#!/usr/bin/env bash
# The whole test suite: installs what it needs, builds, checks types/lint/format, then runs
# contract, server API (on every reachable database), console component and browser tests.
# Ends with one summary line: "Summary: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export FORCE_COLOR=0
mkdir -p test-results
rm -f test-results/*.json

bash scripts/ensure-system.sh

if [ "${CI:-}" = "true" ] || [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== npm ci"
  npm ci --no-audit --no-fund || { echo "npm ci failed"; echo "Summary: 0 passed, 1 failed"; exit 1; }
fi

failed_steps=()

echo "== build"
npm run build || failed_steps+=(build)

echo "== check (typecheck, lint, format)"
npm run check || failed_steps+=(check)

dialects="sqlite"
if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then dialects="$dialects,postgres"; else
  echo "PostgreSQL does not answer on 127.0.0.1:5432: its API tests are skipped"; fi
if mysqladmin -h 127.0.0.1 -uroot status >/dev/null 2>&1; then dialects="$dialects,mysql"; else
  echo "MariaDB/MySQL does not answer on 127.0.0.1:3306: its API tests are skipped"; fi
export DIALECTS="${DIALECTS:-$dialects}"
echo "== unit, API and component tests (databases: $DIALECTS)"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json ||
  failed_steps+=(vitest)

echo "== browser tests (Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME=../test-results/playwright.json npx playwright test -c e2e/playwright.config.ts --reporter=list,json ||
  failed_steps+=(playwright)

node scripts/test-summary.mjs "${failed_steps[@]}"
