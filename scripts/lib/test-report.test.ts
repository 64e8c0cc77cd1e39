import { describe, expect, it } from "vitest";
import { countResults, type PlaywrightReport } from "./test-report";

// Shaped as vitest 4 writes it for `multi-instance.test.ts` failing to import: the file is a
// failed suite with no assertions, and no test counts as failed.
const loadFailure = {
  numTotalTestSuites: 2,
  numPassedTestSuites: 1,
  numFailedTestSuites: 1,
  numPassedTests: 1155,
  numFailedTests: 0,
  numPendingTests: 0,
  numTodoTests: 0,
  success: false,
  testResults: [
    { name: "/repo/tests/http/multi-instance.test.ts", status: "failed", message: "nginx is not installed", assertionResults: [] },
    { name: "/repo/tests/http/health.test.ts", status: "passed", message: "", assertionResults: [{ status: "passed" }] },
  ],
};

const clean = { ...loadFailure, numFailedTestSuites: 0, success: true, testResults: [loadFailure.testResults[1]!] };
const e2e = (stats: Partial<PlaywrightReport["stats"]>): PlaywrightReport => ({
  stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 0, ...stats },
  errors: [],
});

describe("countResults", () => {
  it("counts a test file that failed to load as a failure", () => {
    const counts = countResults({ report: loadFailure, exitCode: 1 });
    expect(counts.passed).toBe(1155);
    expect(counts.failed).toBe(1);
    expect(counts.problems).toEqual(["tests/http/multi-instance.test.ts did not run: nginx is not installed"]);
  });

  it("does not count a file twice when its tests already failed", () => {
    const failedTest = {
      ...loadFailure,
      numFailedTests: 2,
      testResults: [
        { name: "/repo/a.test.ts", status: "failed", message: "", assertionResults: [{ status: "failed" }, { status: "failed" }] },
      ],
    };
    expect(countResults({ report: failedTest, exitCode: 1 }).failed).toBe(2);
  });

  it("never reports 0 failed for a runner that exited non-zero", () => {
    const counts = countResults({ report: clean, exitCode: 1 });
    expect(counts.failed).toBe(1);
    expect(counts.problems).toEqual(["vitest exited with code 1 although no test failed (see its output above)"]);
    expect(countResults({ report: { ...clean, success: false }, exitCode: 0 }).failed).toBe(1);
  });

  it("counts a missing report as a failure", () => {
    expect(countResults({ report: null, exitCode: 1 })).toMatchObject({ failed: 1, problems: ["vitest wrote no report (exit code 1)"] });
  });

  it("adds Playwright's results, a flaky test as a failure, and its global errors", () => {
    expect(countResults({ report: clean, exitCode: 0 }, { report: e2e({ expected: 10, flaky: 1, skipped: 2 }), exitCode: 1 })).toEqual({
      passed: 1165,
      failed: 1,
      skipped: 2,
      problems: [],
      failures: [],
    });
    const setupFailed = {
      ...e2e({}),
      errors: [{ message: "Error: browserType.launch: Executable doesn't exist at /usr/bin/chromium\nmore" }],
    };
    expect(countResults({ report: clean, exitCode: 0 }, { report: setupFailed, exitCode: 1 })).toMatchObject({
      failed: 1,
      problems: ["Playwright: Error: browserType.launch: Executable doesn't exist at /usr/bin/chromium"],
    });
  });

  it("is clean only when every runner passed", () => {
    expect(countResults({ report: clean, exitCode: 0 }, { report: e2e({ expected: 3 }), exitCode: 0 })).toEqual({
      passed: 1158,
      failed: 0,
      skipped: 0,
      problems: [],
      failures: [],
    });
  });

  it("names each failed test, and each browser test that passed only on a retry", () => {
    const vitest = {
      ...clean,
      numFailedTests: 1,
      success: false,
      testResults: [
        {
          name: "/repo/tests/http/orders.test.ts",
          status: "failed",
          message: "",
          assertionResults: [
            { status: "passed", fullName: "orders lists" },
            {
              status: "failed",
              fullName: "orders refuses a stranger",
              failureMessages: ["AssertionError: expected 200 to be 404\n  at …"],
            },
          ],
        },
      ],
    };
    const browser: PlaywrightReport = {
      ...e2e({ expected: 1, flaky: 1, unexpected: 1 }),
      config: { rootDir: "/repo/e2e" },
      suites: [
        {
          file: "ui/pay.spec.ts",
          specs: [
            {
              title: "a shopper pays",
              file: "ui/pay.spec.ts",
              line: 12,
              tests: [
                {
                  projectName: "phone",
                  status: "flaky",
                  results: [
                    { status: "timedOut", errors: [{ message: "Test timeout of 30000ms exceeded.\nmore" }] },
                    { status: "passed", errors: [] },
                  ],
                },
                { projectName: "desktop", status: "expected", results: [{ status: "passed" }] },
              ],
            },
          ],
          suites: [
            {
              specs: [
                {
                  title: "the order page",
                  file: "ui/pay.spec.ts",
                  line: 40,
                  tests: [
                    {
                      status: "unexpected",
                      results: [{ status: "failed", errors: [{ message: "Error: expect(locator).toBeVisible()" }] }],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(countResults({ report: vitest, exitCode: 1 }, { report: browser, exitCode: 1 })).toMatchObject({
      failed: 3,
      failures: [
        "tests/http/orders.test.ts > orders refuses a stranger: AssertionError: expected 200 to be 404",
        "e2e/ui/pay.spec.ts:12 a shopper pays [phone] (flaky, passed on a retry): Test timeout of 30000ms exceeded.",
        "e2e/ui/pay.spec.ts:40 the order page (failed): Error: expect(locator).toBeVisible()",
      ],
    });
  });
});
