import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_EMBEDDED_PG_PORT,
  SERVER_USER_DATA_ROOT,
  startEmbeddedPostgres,
  stopEmbeddedPostgres,
  type DatabaseHandle,
} from "@/lib/db/embedded";
import { freeLoopbackPort } from "@/tests/support/db";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const isRoot = process.getuid?.() === 0;

// As root, PostgreSQL runs as the `postgres` user, which cannot enter a 0700 home such as /root.
describe.skipIf(!isRoot)(
  "the embedded PostgreSQL of a checkout in root's 0700 home (runs only as root: a normal user's server is itself)",
  () => {
    let home: string;
    let dataDir: string;
    let first: DatabaseHandle | undefined;
    let second: DatabaseHandle | undefined;

    beforeAll(async () => {
      home = await fs.mkdtemp(path.join(os.tmpdir(), "gk-root-home-"));
      await fs.chmod(home, 0o700);
      dataDir = path.join(home, "store/.data/pg");
    });

    afterAll(async () => {
      for (const handle of [second, first]) await handle?.stop().catch(() => {});
      if (first?.dataDir) await stopEmbeddedPostgres(first.dataDir).catch(() => {});
      // The directories made for this home's checkouts are named after their paths, so after `home`.
      for (const name of await fs.readdir(SERVER_USER_DATA_ROOT).catch(() => [])) {
        if (name.includes(path.basename(home))) await fs.rm(path.join(SERVER_USER_DATA_ROOT, name), { recursive: true, force: true });
      }
      await fs.rm(home, { recursive: true, force: true });
    });

    it("starts with the data in a directory the server's user owns, and leaves the home's mode alone", async () => {
      first = await startEmbeddedPostgres({ dataDir, port: await freeLoopbackPort(), database: "giftkey" });
      expect(first.startedHere).toBe(true);
      await query(first.url, "CREATE TABLE notes (body text)");
      await query(first.url, "INSERT INTO notes VALUES ('kept')");

      expect(first.dataDir).toMatch(/^\/var\/lib\/giftkey\/[\w.-]+\/pg$/);
      expect(first.pointerFile).toBe(`${dataDir}.location`);
      expect((await fs.readFile(`${dataDir}.location`, "utf8")).trim()).toBe(first.dataDir);
      const owner = await fs.stat(path.dirname(first.dataDir!));
      expect(owner.mode & 0o777).toBe(0o700);
      expect(owner.uid).not.toBe(0);

      const stat = await fs.stat(home);
      expect(stat.mode & 0o777).toBe(0o700);
      expect(stat.uid).toBe(0);
    });

    it("comes back to the same data on the next start", async () => {
      await first!.stop();
      second = await startEmbeddedPostgres({ dataDir, port: await freeLoopbackPort(), database: "giftkey" });
      expect(second.dataDir).toBe(first!.dataDir);
      expect(await query(second.url, "SELECT body FROM notes")).toEqual([{ body: "kept" }]);
    });

    it("is stopped through the configured directory", async () => {
      await stopEmbeddedPostgres(dataDir);
      await expect(fs.access(path.join(first!.dataDir!, "postmaster.pid"))).rejects.toThrow();
    });

    it("starts from a clone whose node_modules (and so the bundled server) is in the home too", async () => {
      const clone = path.join(home, "clone");
      await fs.mkdir(clone);
      // Hard links: a clone of this tree in seconds, with node_modules inside the 0700 home.
      for (const entry of ["lib", "node_modules", "package.json", "tsconfig.json"])
        await run("cp", ["-al", path.join(repoRoot, entry), clone]);
      await fs.writeFile(
        path.join(clone, "start-db.ts"),
        [
          'import { startEmbeddedPostgres } from "./lib/db/embedded";',
          'const handle = await startEmbeddedPostgres({ dataDir: ".data/pg", database: "giftkey" });',
          "console.log(JSON.stringify({ dataDir: handle.dataDir, url: handle.url }));",
          "await handle.stop();",
        ].join("\n"),
      );
      const env = { ...process.env, DATABASE_URL: "", EMBEDDED_PG_PORT: String(await freeLoopbackPort()) };
      const output = await run(process.execPath, ["--import", "tsx", "start-db.ts"], { cwd: clone, env });
      const started = JSON.parse(output.trim().split("\n").pop()!) as { dataDir: string; url: string };
      expect(started.dataDir).toMatch(/^\/var\/lib\/giftkey\//);
      expect(started.url).toContain(`@127.0.0.1:${env.EMBEDDED_PG_PORT}/giftkey`);
    });
  },
);

// A second clone's `npm start` must not trip over the first one's PostgreSQL on the default port.
describe.skipIf(process.env.EMBEDDED_PG_PORT)(
  "two checkouts on one machine (skipped when EMBEDDED_PG_PORT is set: it fixes the port)",
  () => {
    let root: string;
    const dirs = { a: "", b: "" };
    const handles: DatabaseHandle[] = [];
    const ports = { a: 0, b: 0 };
    let defaultWasFree = false;

    const start = async (which: "a" | "b") => {
      const handle = await startEmbeddedPostgres({ dataDir: dirs[which], database: "giftkey" });
      handles.push(handle);
      return handle;
    };

    beforeAll(async () => {
      root = await fs.mkdtemp(path.join(os.tmpdir(), "gk-checkouts-"));
      await fs.chmod(root, 0o755);
      dirs.a = path.join(root, "a/.data/pg");
      dirs.b = path.join(root, "b/.data/pg");
      defaultWasFree = await isFree(DEFAULT_EMBEDDED_PG_PORT);
    });

    afterAll(async () => {
      for (const handle of handles.reverse()) await handle.stop().catch(() => {});
      for (const dir of Object.values(dirs)) await stopEmbeddedPostgres(dir).catch(() => {});
      await fs.rm(root, { recursive: true, force: true });
    });

    it("starts both clusters, each on its own port", async () => {
      const a = await start("a");
      const b = await start("b");
      ports.a = portOf(a);
      ports.b = portOf(b);
      if (defaultWasFree) expect(ports.a).toBe(DEFAULT_EMBEDDED_PG_PORT);
      expect(ports.b).not.toBe(ports.a);
      expect(await query(a.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
      expect(await query(b.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    });

    it("brings a restarted cluster back on the port it remembered, even when the first one's is free", async () => {
      for (const handle of handles.splice(0)) await handle.stop();
      const b = await start("b");
      expect(portOf(b)).toBe(ports.b);
      const a = await start("a");
      expect(portOf(a)).toBe(ports.a);
    });

    it("moves to another free port when its remembered one is taken", async () => {
      for (const handle of handles.splice(0)) await handle.stop();
      const blocker = net.createServer();
      await new Promise<void>((resolve) => blocker.listen(ports.b, "127.0.0.1", resolve));
      try {
        const b = await start("b");
        expect(portOf(b)).not.toBe(ports.b);
        expect(await query(b.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
      } finally {
        await new Promise((resolve) => blocker.close(resolve));
      }
    });

    it("still uses a port it is given", async () => {
      for (const handle of handles.splice(0)) await handle.stop();
      const port = await freeLoopbackPort();
      const handle = await startEmbeddedPostgres({ dataDir: dirs.a, port, database: "giftkey" });
      handles.push(handle);
      expect(portOf(handle)).toBe(port);
    });
  },
);

function run(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, options, (err, stdout, stderr) =>
      err ? reject(new Error(`${file} ${args.join(" ")}: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}

function portOf(handle: DatabaseHandle): number {
  return Number(new URL(handle.url).port);
}

async function query(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
