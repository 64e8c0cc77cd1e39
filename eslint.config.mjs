import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // Test helpers read loosely typed JSON bodies on purpose.
      "@typescript-eslint/no-explicit-any": ["error", { ignoreRestArgs: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  { files: ["tests/**/*.ts", "**/*.test.ts"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  {
    // Schemas run in the browser and components render there: neither may reach the server side.
    files: ["lib/schemas/**", "components/**", "lib/queries/**", "lib/money.ts", "lib/steam.ts", "lib/attribution.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/lib/services/*", "@/lib/db/*", "@/lib/api/*", "@/lib/env"], message: "server-only module: pass data in instead" },
          ],
        },
      ],
    },
  },
  {
    // Services speak the domain: they throw DomainError with a reason and never meet HTTP, which
    // is the API wrapper's (lib/api) alone.
    files: ["lib/services/**", "lib/delivery/**", "lib/payments/**", "lib/mail/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/api/*", "next/server", "next/headers"],
              message: "services speak the domain: throw a DomainError and let lib/api map it",
            },
          ],
        },
      ],
      "no-restricted-globals": ["error", { name: "Response", message: "services return data; the API wrapper builds responses" }],
    },
  },
  globalIgnores([".next/**", ".data/**", "node_modules/**", "bench-results/**", "next-env.d.ts"]),
]);
