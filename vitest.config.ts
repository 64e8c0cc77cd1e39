import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };
// `server-only` throws outside React Server Components; tests run services directly.
const resolve = { alias: { ...alias, "server-only": path.resolve(import.meta.dirname, "tests/support/empty.ts") } };

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: { name: "unit", include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"], environment: "node" },
      },
      {
        resolve,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/setup/database-server.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve,
        test: {
          name: "http",
          include: ["tests/http/**/*.test.ts"],
          globalSetup: ["tests/setup/database-server.ts", "tests/setup/app-server.ts"],
          testTimeout: 60_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
