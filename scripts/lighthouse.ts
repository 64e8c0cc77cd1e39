// `npm run lighthouse [-- --runs N --pages catalog,game --form mobile --save DIR]`: Lighthouse against the
// production build (started with a seeded database of its own) for every page a shopper sees, mobile
// and desktop, N runs each (default 5); prints each figure with its target. `--pages sign-up` adds
// the sign-up page, which a whole run leaves out. The measuring is
// scripts/bench/pages.ts, shared with `npm run bench`. --save keeps each median run's full report.
import os from "node:os";
import { parseArgs } from "node:util";
import { EXTRA_PAGE_NAMES, measurePages, PAGE_NAMES, printPages, type FormFactor, type PageName } from "./bench/pages";
import { startAppUnderTest } from "./lib/app-under-test";

const { values: args } = parseArgs({
  options: { runs: { type: "string", default: "5" }, pages: { type: "string" }, form: { type: "string" }, save: { type: "string" } },
});

function list<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(",").map((s) => s.trim());
  const wrong = items.filter((s) => !(allowed as readonly string[]).includes(s));
  if (wrong.length > 0 || items.length === 0) throw new Error(`--${flag} takes a comma-separated list of: ${allowed.join(", ")}`);
  return items as T[];
}

async function main(): Promise<void> {
  const runs = Number(args.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 15) throw new Error("--runs takes a whole number from 1 to 15");
  const pages = list<PageName>("pages", args.pages, [...PAGE_NAMES, ...EXTRA_PAGE_NAMES]);
  const formFactors = list<FormFactor>("form", args.form, ["mobile", "desktop"]);
  const app = await startAppUnderTest({ name: "lighthouse", games: 3000, embeddedDir: ".data/lighthouse-pg" });
  try {
    console.log(
      `Machine load before the runs (1, 5, 15 min): ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(", ")} on ${os.availableParallelism()} cores`,
    );
    const rows = await measurePages({
      baseUrl: app.baseUrl,
      databaseUrl: app.databaseUrl,
      runs,
      pages,
      formFactors,
      reportDir: args.save,
      onRun: (page, form, run, perf) => process.stderr.write(`  ${page} ${form} run ${run}: performance ${perf}\n`),
    });
    printPages(rows);
    console.log(
      `Machine load after the runs (1, 5, 15 min): ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(", ")}`,
    );
  } finally {
    await app.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
