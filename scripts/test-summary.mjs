// Adds up the JSON reports of every test runner into one closing line.
// Arguments: names of steps that failed outside the runners (build, check, …).
// SKIPPED_LAYERS: test layers that did not run, separated by ';'. They are named on the line
// before the summary, so the last line stays "Summary: N passed, N failed[, N skipped]".
import { existsSync, readFileSync } from 'node:fs'
import { relative } from 'node:path'

const failedSteps = process.argv.slice(2)
const skippedLayers = (process.env.SKIPPED_LAYERS ?? '')
  .split(';')
  .map((layer) => layer.trim())
  .filter(Boolean)
let passed = 0
let failed = 0
let skipped = 0
// Failed tests are named again here, so the last lines of a long run say what to look at.
const failedNames = []
const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((line) => line.trim()) ?? ''

const vitestFile = 'test-results/vitest.json'
if (existsSync(vitestFile)) {
  const report = JSON.parse(readFileSync(vitestFile, 'utf8'))
  passed += report.numPassedTests ?? 0
  failed += report.numFailedTests ?? 0
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  // A file that failed to load has no tests to count; count the file instead.
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) {
      failed += 1
      failedNames.push(`${relative('.', file.name)}: ${firstLine(file.message)}`)
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue
      failedNames.push(
        `${relative('.', file.name)} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`,
      )
    }
  }
} else if (!failedSteps.includes('vitest')) {
  failedSteps.push('vitest (no report)')
}

const playwrightFile = 'test-results/playwright.json'
if (existsSync(playwrightFile)) {
  const report = JSON.parse(readFileSync(playwrightFile, 'utf8'))
  const stats = report.stats ?? {}
  const visit = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      if (spec.ok) continue
      const error = spec.tests?.flatMap((t) => t.results ?? []).find((r) => r.error)?.error
      failedNames.push(`${[...path, spec.title].join(' › ')}: ${firstLine(error?.message)}`)
    }
    for (const child of suite.suites ?? []) visit(child, [...path, child.title])
  }
  for (const suite of report.suites ?? []) visit(suite, [suite.title])
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0)
  failed += stats.unexpected ?? 0
  skipped += stats.skipped ?? 0
} else if (!failedSteps.includes('playwright')) {
  failedSteps.push('playwright (no report)')
}

for (const name of failedNames) console.log(`Failed: ${name.slice(0, 400)}`)
const stepsOnly = failedSteps.filter((s) => s !== 'vitest' && s !== 'playwright')
if (failedSteps.length) console.log(`Failed steps: ${failedSteps.join(', ')}`)
failed += stepsOnly.length
if (skippedLayers.length) console.log(`Skipped layers: ${skippedLayers.join(', ')}`)
console.log(`Summary: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0)
