// `npm run lighthouse [-- --runs N]`: Lighthouse (Debian's Chromium) against the production build,
// catalog and game pages, mobile and desktop; prints the scores and the catalog page's first-load
// JavaScript. Each page and form factor is run N times (default 3) and the run with the median
// performance score is reported, as Lighthouse's own guidance on variance advises; the spread of
// the N scores is printed beside it.
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig, type Flags, type RunnerResult } from "lighthouse";
import { startAppUnderTest } from "./lib/app-under-test";

const PAGES = [
  { name: "catalog", path: "/" },
  { name: "game", path: "/games/620" },
];
const TARGETS = { performance: 95, accessibility: 100 };

interface Row {
  page: string;
  /** Every run's performance score, lowest first. */
  spread: number[];
  formFactor: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptTransferBytes: number;
  scriptBytes: number;
  scripts: number;
}

function runsFlag(): number {
  const i = process.argv.indexOf("--runs");
  const n = i === -1 ? 3 : Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 15) throw new Error("--runs takes a whole number from 1 to 15");
  return n;
}

function score(result: RunnerResult, id: string): number {
  return Math.round((result.lhr.categories[id]?.score ?? 0) * 100);
}

function numeric(result: RunnerResult, id: string): number {
  return result.lhr.audits[id]?.numericValue ?? Number.NaN;
}

/** Every script the page loaded, from Lighthouse's own network record. */
function scriptSizes(result: RunnerResult): { transfer: number; resource: number; count: number } {
  const details = result.lhr.audits["network-requests"]?.details as { items?: Array<Record<string, unknown>> } | undefined;
  const scripts = (details?.items ?? []).filter((item) => item.resourceType === "Script");
  return {
    transfer: scripts.reduce((sum, s) => sum + Number(s.transferSize ?? 0), 0),
    resource: scripts.reduce((sum, s) => sum + Number(s.resourceSize ?? 0), 0),
    count: scripts.length,
  };
}

async function main(): Promise<void> {
  const runs = runsFlag();
  const app = await startAppUnderTest({ name: "lighthouse", games: 3000, embeddedDir: ".data/lighthouse-pg" });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
  const rows: Row[] = [];
  try {
    const flags: Flags = {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    };
    for (const page of PAGES) {
      // Warm the server (first render compiles nothing in production, but fills the caches).
      await fetch(app.baseUrl + page.path);
      for (const formFactor of ["mobile", "desktop"] as const) {
        const results: RunnerResult[] = [];
        for (let run = 0; run < runs; run++) {
          const result = await lighthouse(app.baseUrl + page.path, flags, formFactor === "desktop" ? desktopConfig : undefined);
          if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
          const failure = result.lhr.runtimeError;
          if (failure) throw new Error(`Lighthouse could not load ${page.path}: ${failure.code} ${failure.message}`);
          results.push(result);
        }
        results.sort((a, b) => score(a, "performance") - score(b, "performance"));
        const result = results[Math.floor((results.length - 1) / 2)]!;
        const js = scriptSizes(result);
        rows.push({
          page: `${page.name} (${page.path})`,
          spread: results.map((r) => score(r, "performance")),
          formFactor,
          performance: score(result, "performance"),
          accessibility: score(result, "accessibility"),
          bestPractices: score(result, "best-practices"),
          seo: score(result, "seo"),
          lcpMs: Math.round(numeric(result, "largest-contentful-paint")),
          tbtMs: Math.round(numeric(result, "total-blocking-time")),
          cls: Number(numeric(result, "cumulative-layout-shift").toFixed(3)),
          scriptTransferBytes: js.transfer,
          scriptBytes: js.resource,
          scripts: js.count,
        });
      }
    }
  } finally {
    chrome.kill();
    await app.stop();
  }

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(`\nMedian of ${runs} run${runs === 1 ? "" : "s"} by performance score (every run's score in brackets).`);
  console.log("page                 form     perf  a11y  best  seo   LCP ms  TBT ms  CLS    JS (gzip / raw, files)        runs");
  for (const r of rows) {
    console.log(
      `${r.page.padEnd(20)} ${r.formFactor.padEnd(8)} ${String(r.performance).padStart(4)}  ${String(r.accessibility).padStart(4)}  ${String(r.bestPractices).padStart(4)}  ${String(r.seo).padStart(3)}  ${String(r.lcpMs).padStart(7)}  ${String(r.tbtMs).padStart(6)}  ${r.cls.toFixed(3)}  ${kb(r.scriptTransferBytes)} / ${kb(r.scriptBytes)}, ${r.scripts}  [${r.spread.join(" ")}]`,
    );
  }
  const misses = rows.filter((r) => r.performance < TARGETS.performance || r.accessibility < TARGETS.accessibility);
  const catalog = rows.find((r) => r.page.startsWith("catalog") && r.formFactor === "mobile");
  if (catalog)
    console.log(
      `\nCatalog page first-load JavaScript: ${kb(catalog.scriptTransferBytes)} compressed, ${kb(catalog.scriptBytes)} uncompressed, ${catalog.scripts} files.`,
    );
  console.log(
    misses.length === 0
      ? `Every page meets performance >= ${TARGETS.performance} and accessibility = ${TARGETS.accessibility}.`
      : `Below target (performance >= ${TARGETS.performance}, accessibility = ${TARGETS.accessibility}): ${misses.map((r) => `${r.page} ${r.formFactor}`).join(", ")}.`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
