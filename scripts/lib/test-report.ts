// The closing line of `npm test`, computed from the JSON reports vitest and Playwright write.

export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

export interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/** `null` for a report that was not written (the runner died, or never ran); `playwright` undefined when it was not run. */
export function countResults(vitest: VitestReport | null, playwright?: PlaywrightReport | null): TestCounts {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  if (vitest) {
    counts.passed += vitest.numPassedTests;
    counts.failed += vitest.numFailedTests;
    counts.skipped += vitest.numPendingTests + vitest.numTodoTests;
  } else counts.failed += 1;
  if (playwright === undefined) return counts;
  if (playwright) {
    const { stats } = playwright;
    counts.passed += stats.expected;
    // A test that needed a retry to pass is not a pass.
    counts.failed += stats.unexpected + stats.flaky;
    counts.skipped += stats.skipped;
  } else counts.failed += 1;
  return counts;
}
