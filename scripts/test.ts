// `npm test`: everything a change must pass - types, lint, a fresh production build, unit, integration and HTTP tests.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const reportFile = path.join(root, ".data/test-results/vitest.json");

function step(title: string, command: string, args: string[]): boolean {
  console.log(`\n▶ ${title}: ${path.basename(command)} ${args.join(" ")}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${result.status === 0 ? "✔" : "✘"} ${title} (${seconds} s)`);
  return result.status === 0;
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
  // HTTP tests run against `next start`, so they must see a build of this very tree.
  if (!step("build", bin("next"), ["build"])) return 1;
  fs.rmSync(reportFile, { force: true });
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  const testsOk = step("unit, integration and HTTP tests", bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${reportFile}`,
    ...extra,
  ]);
  if (!fs.existsSync(reportFile)) {
    console.log("0 passed, 1 failed");
    return 1;
  }
  const report = JSON.parse(fs.readFileSync(reportFile, "utf8")) as VitestReport;
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(`\n${report.numPassedTests} passed, ${report.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`);
  return testsOk && report.numFailedTests === 0 ? 0 : 1;
}

process.exitCode = main();
