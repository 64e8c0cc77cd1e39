import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests in Debian's Chromium against the production build (`next start`) with a freshly
 * migrated and seeded database; e2e/global-setup.ts starts both. Every spec runs at desktop width;
 * specs and tests tagged @phone also run at a phone's.
 */
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
};

export default defineConfig({
  testDir: "e2e",
  outputDir: ".data/e2e/results",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: true,
  // Two browsers keep both cores busy while the server waits on the database; more only contend.
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [
    ["list"],
    ["json", { outputFile: ".data/test-results/playwright.json" }],
    ["html", { outputFolder: ".data/e2e/report", open: "never" }],
  ],
  use: {
    locale: "ru-RU",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: chromium,
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions: chromium } },
    {
      name: "phone",
      grep: /@phone/,
      use: { ...devices["Pixel 7"], viewport: { width: 390, height: 844 }, launchOptions: chromium },
    },
  ],
});
