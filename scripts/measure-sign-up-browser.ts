// Times a sign-up as a shopper's Chromium makes it, step by step, against the production build:
// npm run measure:sign-up:browser [-- --runs N] [--url http://localhost:3000]
//
// Each run is a fresh browser that first opens the catalog (as a shopper would before signing up),
// then the sign-up page, fills the form and presses the button; from that click it records when each
// request of the sign-up starts and ends (the server action, next-auth's CSRF token and credentials
// callback, the landing page's document) and when the landing page is parsed, loaded and says the
// account was made. The first run after the server starts is reported apart: it pays for loading
// each route's code. Without --url it starts its own server on a fresh seeded database
// (scripts/lib/app-under-test.ts); needs a build (npm run build).
import crypto from "node:crypto";
import { chromium } from "@playwright/test";
import { startAppUnderTest, type AppUnderTest } from "./lib/app-under-test";

const STEPS = [
  "server action (rate limit, scrypt, insert)",
  "GET /api/auth/csrf",
  "POST /api/auth/callback/credentials (limiter, scrypt, session)",
  "landing page: document (server render)",
  "landing page: DOMContentLoaded",
  "landing page: load",
  "landing page: 'account created' shown",
] as const;
type Step = (typeof STEPS)[number];

interface Run {
  /** Milliseconds from the form's submit to each step's end. */
  ends: Partial<Record<Step, number>>;
  /** Milliseconds each request step took on its own (start to end). */
  own: Partial<Record<Step, number>>;
  /** Requests the browser made between the click and the notice, and the scripts among them. */
  requests: number;
  scripts: number;
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Resource timings the sign-up page records for itself (it is gone before anyone could read them). */
interface Entry {
  name: string;
  start: number;
  end: number;
}

async function measureOnce(baseUrl: string, verbose: boolean): Promise<Run> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const context = await browser.newContext({ locale: "ru-RU", viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await page.goto(`${baseUrl}/sign-up?callbackUrl=%2F`);
    await page.getByLabel("Эл. почта", { exact: true }).fill(`measure-${crypto.randomBytes(6).toString("hex")}@example.com`);
    await page.getByLabel("Пароль", { exact: true }).fill("correct horse battery 42");

    let requests = 0;
    let scripts = 0;
    page.on("request", (request) => {
      requests++;
      if (request.resourceType() === "script") scripts++;
    });
    // The page's own clock and resource timings (epoch ms), kept in sessionStorage across the navigation.
    // (No named functions in the page's code: tsx's keepNames would refer to a helper the page lacks.)
    await page.evaluate(() => {
      document.addEventListener(
        "submit",
        () => sessionStorage.setItem("measure:submitted", String(performance.timeOrigin + performance.now())),
        {
          capture: true,
        },
      );
      new PerformanceObserver((list) => {
        const entries = JSON.parse(sessionStorage.getItem("measure:entries") ?? "[]") as Entry[];
        for (const e of list.getEntries())
          entries.push({
            name: e.name,
            start: performance.timeOrigin + e.startTime,
            end: performance.timeOrigin + e.startTime + e.duration,
          });
        sessionStorage.setItem("measure:entries", JSON.stringify(entries));
      }).observe({ type: "resource" });
    });
    await page.getByRole("button", { name: "Создать аккаунт" }).click();
    const shown = await (
      await page.waitForFunction(
        () =>
          document.querySelector("[role=status]")?.textContent?.includes("аккаунт создан") ? performance.timeOrigin + performance.now() : 0,
        undefined,
        { polling: "raf" },
      )
    ).jsonValue();
    const measured = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const origin = performance.timeOrigin;
      return {
        submitted: Number(sessionStorage.getItem("measure:submitted")),
        entries: JSON.parse(sessionStorage.getItem("measure:entries") ?? "[]") as Entry[],
        document: { start: origin + nav.requestStart, end: origin + nav.responseEnd },
        dcl: origin + nav.domContentLoadedEventEnd,
        load: nav.loadEventEnd > 0 ? origin + nav.loadEventEnd : null,
      };
    });
    const t0 = measured.submitted;
    const run: Run = { ends: {}, own: {}, requests, scripts };
    const record = (step: Step, span: { start: number; end: number } | undefined) => {
      if (!span) return;
      run.own[step] = span.end - span.start;
      run.ends[step] = span.end - t0;
    };
    const after = measured.entries.filter((e) => e.start >= t0);
    const path = (e: Entry) => new URL(e.name).pathname + new URL(e.name).search;
    record(
      STEPS[0],
      after.find((e) => path(e) === "/sign-up?callbackUrl=%2F"),
    );
    record(
      STEPS[1],
      after.find((e) => path(e) === "/api/auth/csrf"),
    );
    record(
      STEPS[2],
      after.find((e) => path(e) === "/api/auth/callback/credentials"),
    );
    record(STEPS[3], measured.document);
    run.ends[STEPS[4]] = measured.dcl - t0;
    if (measured.load !== null) run.ends[STEPS[5]] = measured.load - t0;
    run.ends[STEPS[6]] = shown - t0;
    if (verbose) {
      for (const e of after) console.log(`  ${(e.start - t0).toFixed(0)}-${(e.end - t0).toFixed(0)} ms ${path(e)}`);
      console.log(`  ${(measured.document.start - t0).toFixed(0)}-${(measured.document.end - t0).toFixed(0)} ms document`);
    }
    await context.close();
    return run;
  } finally {
    await browser.close();
  }
}

function table(title: string, runs: Run[]): void {
  console.log(`\n${title} (${runs.length} ${runs.length === 1 ? "run" : "runs"}; ms, median)`);
  console.log("| step | from the submit to its end | the step alone |\n|---|---|---|");
  for (const step of STEPS) {
    const ends = runs.map((r) => r.ends[step]).filter((v): v is number => v !== undefined);
    const own = runs.map((r) => r.own[step]).filter((v): v is number => v !== undefined);
    console.log(`| ${step} | ${ends.length ? median(ends).toFixed(0) : "—"} | ${own.length ? median(own).toFixed(0) : ""} |`);
  }
  console.log(`requests after the click: ${median(runs.map((r) => r.requests))} (scripts ${median(runs.map((r) => r.scripts))})`);
}

async function main(): Promise<void> {
  const runs = Number(option("runs") ?? 7);
  if (!Number.isInteger(runs) || runs < 2 || runs > 50) throw new Error("--runs takes a whole number from 2 to 50");
  const url = option("url");
  const app: AppUnderTest | null = url
    ? null
    : await startAppUnderTest({ name: "signup", games: 3000, embeddedDir: ".data/measure-pg", env: { RATE_LIMIT_PER_IP: "100000" } });
  try {
    const results: Run[] = [];
    for (let i = 0; i < runs; i++) results.push(await measureOnce(url ?? app!.baseUrl, process.argv.includes("--verbose")));
    table("First sign-up after the server started", results.slice(0, 1));
    table("Later sign-ups", results.slice(1));
  } finally {
    await app?.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
