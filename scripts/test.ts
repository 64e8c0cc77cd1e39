// `npm test`: everything a change must pass - types, lint, a fresh production build, unit, integration
// and HTTP tests, then the browser tests (Playwright in Debian's Chromium).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const reportFile = path.join(root, ".data/test-results/vitest.json");
const e2eReportFile = path.join(root, ".data/test-results/playwright.json");

function step(title: string, command: string, args: string[]): boolean {
  console.log(`\n▶ ${title}: ${path.basename(command)} ${args.join(" ")}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${result.status === 0 ? "✔" : "✘"} ${title} (${seconds} s)`);
  return result.status === 0;
}

interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

function main(): number {
  const extra = process.argv.slice(2);
  if (!step("typecheck", bin("tsc"), ["--noEmit"])) return 1;
  if (!step("lint", bin("eslint"), ["."])) return 1;
  // HTTP and browser tests run against `next start`, so they must see a build of this very tree.
  if (!step("build", bin("next"), ["build"])) return 1;
  for (const file of [reportFile, e2eReportFile]) fs.rmSync(file, { force: true });
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  const testsOk = step("unit, integration and HTTP tests", bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${reportFile}`,
    ...extra,
  ]);
  // The browser tests run even after a failure above, so one run shows everything that is broken.
  const e2eOk = extra.length > 0 || step("browser tests", bin("playwright"), ["test"]);

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (fs.existsSync(reportFile)) {
    const report = JSON.parse(fs.readFileSync(reportFile, "utf8")) as VitestReport;
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
  } else failed += 1;
  if (extra.length === 0) {
    if (fs.existsSync(e2eReportFile)) {
      const { stats } = JSON.parse(fs.readFileSync(e2eReportFile, "utf8")) as PlaywrightReport;
      passed += stats.expected;
      // A test that needed a retry to pass is not a pass.
      failed += stats.unexpected + stats.flaky;
      skipped += stats.skipped;
    } else failed += 1;
  }
  console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  return testsOk && e2eOk && failed === 0 ? 0 : 1;
}

process.exitCode = main();
