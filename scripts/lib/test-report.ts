// The closing line of `npm test`, computed from the JSON reports vitest and Playwright write and
// from how each runner exited, so that the line and the exit code can never disagree.
import path from "node:path";

/** The parts of vitest's JSON report (`--reporter=json`) we read. */
export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  success?: boolean;
  testResults?: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { status: string; fullName?: string; failureMessages?: string[] }[];
  }[];
}

/** A Playwright suite: a file, or a describe block inside one. */
interface PlaywrightSuite {
  file?: string;
  specs?: {
    title: string;
    file: string;
    line: number;
    tests: { projectName?: string; status: string; results: { status: string; errors?: { message?: string }[] }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}

/** The parts of Playwright's JSON report we read. */
export interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  /** Errors outside any test: global setup, a browser that cannot launch. */
  errors?: { message?: string }[];
  /** rootDir: the absolute testDir, which specs' file names are relative to. */
  config?: { rootDir?: string };
  suites?: PlaywrightSuite[];
}

export interface RunnerResult<R> {
  /** `null` when the runner wrote no report (it died, or never started). */
  report: R | null;
  exitCode: number | null;
}

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Failures that are not a failed test, one line each: a file that did not load, a runner's error. */
  problems: string[];
  /** Each failed (or, in the browser, flaky) test by file and name, with its first error line. */
  failures: string[];
}

/** Counts over vitest's run and, when the browser tests ran, Playwright's. */
export function countResults(vitest: RunnerResult<VitestReport>, playwright?: RunnerResult<PlaywrightReport>): TestCounts {
  const counts: TestCounts = { passed: 0, failed: 0, skipped: 0, problems: [], failures: [] };
  addVitest(counts, vitest);
  if (playwright) addPlaywright(counts, playwright);
  return counts;
}

function addVitest(counts: TestCounts, { report, exitCode }: RunnerResult<VitestReport>): void {
  if (!report) {
    counts.failed += 1;
    counts.problems.push(`vitest wrote no report (exit code ${exitCode})`);
    return;
  }
  const before = counts.failed;
  counts.passed += report.numPassedTests;
  counts.failed += report.numFailedTests;
  counts.skipped += report.numPendingTests + report.numTodoTests;
  // A file that failed to import, or whose beforeAll/afterAll threw, is a failed suite in which no
  // test failed: vitest leaves it out of numFailedTests, so it is counted here, once per file.
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults) {
      if (test.status !== "failed") continue;
      counts.failures.push(`${relative(file.name)} > ${test.fullName ?? "?"}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (file.status !== "failed" || file.assertionResults.some((a) => a.status === "failed")) continue;
    counts.failed += 1;
    counts.problems.push(`${relative(file.name)} did not run: ${firstLine(file.message) || "see vitest's output above"}`);
  }
  if (counts.failed === before && (exitCode !== 0 || report.success === false)) {
    counts.failed += 1;
    counts.problems.push(`vitest exited with code ${exitCode} although no test failed (see its output above)`);
  }
}

function addPlaywright(counts: TestCounts, { report, exitCode }: RunnerResult<PlaywrightReport>): void {
  if (!report) {
    counts.failed += 1;
    counts.problems.push(`Playwright wrote no report (exit code ${exitCode})`);
    return;
  }
  const before = counts.failed;
  const { stats } = report;
  counts.passed += stats.expected;
  // A test that needed a retry to pass is not a pass.
  counts.failed += stats.unexpected + stats.flaky;
  counts.skipped += stats.skipped;
  const rootDir = report.config?.rootDir ?? "";
  for (const suite of report.suites ?? []) addPlaywrightFailures(counts.failures, rootDir, suite);
  for (const error of report.errors ?? []) {
    counts.failed += 1;
    counts.problems.push(`Playwright: ${firstLine(error.message) || "an error outside any test"}`);
  }
  if (counts.failed === before && exitCode !== 0) {
    counts.failed += 1;
    counts.problems.push(`Playwright exited with code ${exitCode} although no test failed (see its output above)`);
  }
}

function addPlaywrightFailures(failures: string[], rootDir: string, suite: PlaywrightSuite): void {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests) {
      if (test.status !== "unexpected" && test.status !== "flaky") continue;
      const failed = test.results.find((r) => r.status !== "passed" && r.status !== "skipped");
      const how = test.status === "flaky" ? "flaky, passed on a retry" : (failed?.status ?? "failed");
      const project = test.projectName ? ` [${test.projectName}]` : "";
      failures.push(
        `${relative(path.join(rootDir, spec.file))}:${spec.line} ${spec.title}${project} (${how}): ${firstLine(failed?.errors?.[0]?.message)}`,
      );
    }
  }
  for (const child of suite.suites ?? []) addPlaywrightFailures(failures, rootDir, child);
}

/** Test files are named relative to the checkout; reports carry absolute paths. */
function relative(file: string): string {
  const at = file.search(/\/(tests|lib|components|scripts|e2e)\//);
  return at >= 0 ? file.slice(at + 1) : path.basename(file);
}

function firstLine(text: string | undefined): string {
  return (text ?? "").trim().split("\n")[0]!.trim();
}
