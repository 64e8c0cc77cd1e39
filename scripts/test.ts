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
/** The closing lines again, for whoever reads only the end of a long log (CI prints it last). */
const summaryFile = path.join(root, ".data/test-results/summary.txt");

/** Runs one step with the terminal; returns its exit code (1 when it could not start or was killed). */
function step(title: string, command: string, args: string[]): number {
  console.log(`\n▶ ${title}: ${path.basename(command)} ${args.join(" ")}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${result.status === 0 ? "✔" : "✘"} ${title} (${seconds} s)`);
  return result.status ?? 1;
}

function main(): number {
  const extra = process.argv.slice(2);
  fs.rmSync(summaryFile, { force: true });
  // Chromium and nginx come from Debian, not npm: install them (as root) or say how, before anything slow.
  if (step("system packages", path.join(root, "scripts/install-system-packages.sh"), []) !== 0) return 1;
  if (step("typecheck", bin("tsc"), ["--noEmit"]) !== 0) return 1;
  if (step("lint", bin("eslint"), ["."]) !== 0) return 1;
  // Formatting is part of lint: an unformatted file fails here; `npm run format` fixes it.
  if (step("format check", bin("prettier"), ["--check", "."]) !== 0) return 1;
  // HTTP and browser tests run against `next start`, so they must see a build of this very tree.
  if (step("build", bin("next"), ["build"]) !== 0) return 1;
  for (const file of [reportFile, e2eReportFile]) fs.rmSync(file, { force: true });
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  const vitestExit = step("unit, integration and HTTP tests", bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${reportFile}`,
    ...extra,
  ]);
  // The browser tests run even after a failure above, so one run shows everything that is broken.
  const e2eExit = extra.length > 0 ? null : step("browser tests", bin("playwright"), ["test"]);

  const readJson = <T>(file: string): T | null => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as T) : null);
  const { passed, failed, skipped, problems, failures } = countResults(
    { report: readJson<VitestReport>(reportFile), exitCode: vitestExit },
    e2eExit === null ? undefined : { report: readJson<PlaywrightReport>(e2eReportFile), exitCode: e2eExit },
  );
  const summary = [
    ...[...failures, ...problems].map((line) => `✘ ${line}`),
    `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`,
  ].join("\n");
  console.log(`\n${summary}`);
  fs.writeFileSync(summaryFile, `${summary}\n`);
  // countResults counts a runner that exited non-zero as a failure, so this agrees with the line above.
  return failed === 0 ? 0 : 1;
}

process.exitCode = main();
