#!/usr/bin/env bash
# The whole test suite: installs what it needs, builds, checks types/lint/format, then runs
# contract, server API (on every reachable database), console component and browser tests.
# Ends with one summary line: "Summary: N passed, N failed"; the line before it names every
# test layer that did not run. DIALECTS (e.g. "sqlite,postgres") chooses the databases of the
# API tests; without it, every database that answers. With CI=true a database that does not
# answer fails the run instead of skipping its tests.
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export FORCE_COLOR=0
mkdir -p test-results
rm -f test-results/*.json

# Also defines postgres_answers and mysql_answers.
source scripts/ensure-system.sh

if [ "${CI:-}" = "true" ] || [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== npm ci"
  npm ci --no-audit --no-fund || { echo "npm ci failed"; echo "Summary: 0 passed, 1 failed"; exit 1; }
fi

failed_steps=()

echo "== build"
npm run build || failed_steps+=(build)

echo "== check (typecheck, lint, format)"
npm run check || failed_steps+=(check)

# Which API test layers run, and why the others do not.
declare -A layer_name=([sqlite]="SQLite API tests" [postgres]="PostgreSQL API tests" [mysql]="MariaDB API tests")
skipped_layers=()
if [ -n "${DIALECTS:-}" ]; then
  dialect_source="DIALECTS"
else
  dialect_source="detected"
  DIALECTS="sqlite"
  postgres_answers && DIALECTS="$DIALECTS,postgres"
  mysql_answers && DIALECTS="$DIALECTS,mysql"
fi
export DIALECTS
for dialect in sqlite postgres mysql; do
  case ",$DIALECTS," in *",$dialect,"*) continue ;; esac
  if [ "$dialect_source" = "DIALECTS" ]; then
    skipped_layers+=("${layer_name[$dialect]} (not in DIALECTS)")
  elif [ "${CI:-}" = "true" ]; then
    echo "${layer_name[$dialect]}: the database does not answer, and CI=true requires it"
    failed_steps+=("${layer_name[$dialect]} (database does not answer)")
  else
    skipped_layers+=("${layer_name[$dialect]} (database does not answer)")
  fi
done
echo "== unit, API and component tests (databases: $DIALECTS)"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json ||
  failed_steps+=(vitest)

echo "== browser tests (Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME=../test-results/playwright.json npx playwright test -c e2e/playwright.config.ts --reporter=list,json ||
  failed_steps+=(playwright)

SKIPPED_LAYERS="$(IFS=';'; echo "${skipped_layers[*]}")" node scripts/test-summary.mjs "${failed_steps[@]}"
