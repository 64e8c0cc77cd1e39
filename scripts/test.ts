// `npm test`: everything a change must pass - types, lint, a fresh production build, unit, integration
// and HTTP tests, then the browser tests (Playwright in Debian's Chromium).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { countResults, type PlaywrightReport, type VitestReport } from "./lib/test-report";

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

  const readJson = <T>(file: string): T | null => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as T) : null);
  const { passed, failed, skipped } = countResults(
    readJson<VitestReport>(reportFile),
    extra.length === 0 ? readJson<PlaywrightReport>(e2eReportFile) : undefined,
  );
  console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  return testsOk && e2eOk && failed === 0 ? 0 : 1;
}

process.exitCode = main();
