import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedPostgresError, startEmbeddedPostgres, type DatabaseHandle } from "@/lib/db/embedded";
import { freeLoopbackPort } from "@/tests/support/db";

// One cluster walks through its life in order: cold start, crash, restart, attach, stop.
describe.sequential("embedded PostgreSQL", () => {
  let root: string;
  let dataDir: string;
  let port: number;
  const handles: DatabaseHandle[] = [];
  let restarted: DatabaseHandle;

  const start = async (overrides: { port?: number; dataDir?: string } = {}) => {
    const handle = await startEmbeddedPostgres({ dataDir, port, database: "giftkey", ...overrides });
    handles.push(handle);
    return handle;
  };

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "gk-embedded-"));
    // PostgreSQL runs as the `postgres` user when we are root; it must be able to reach the directory.
    await fs.chmod(root, 0o755);
    dataDir = path.join(root, "pg");
    port = await freeLoopbackPort();
  });

  afterAll(async () => {
    for (const handle of handles.reverse()) await handle.stop().catch(() => {});
    await fs.rm(root, { recursive: true, force: true });
  });

  it("initialises a cluster on first use and serves the database on loopback", async () => {
    const handle = await start();
    expect(handle.startedHere).toBe(true);
    expect(handle.url).toContain(`@127.0.0.1:${port}/giftkey`);

    await query(handle.url, "CREATE TABLE notes (body text)");
    await query(handle.url, "INSERT INTO notes VALUES ('kept')");
    const [row] = await query(handle.url, "SELECT current_database() AS db, inet_server_addr()::text AS addr");
    expect(row).toEqual({ db: "giftkey", addr: "127.0.0.1/32" });

    const passwordFile = await fs.stat(path.join(root, "pg.password"));
    expect(passwordFile.mode & 0o777).toBe(0o600);
  });

  it("restarts after the postmaster was SIGKILLed, with the data kept", async () => {
    const pid = await postmasterPid(dataDir);
    process.kill(pid, "SIGKILL");
    await waitUntil(async () => !(await accepts(port)));
    expect(await postmasterPid(dataDir)).toBe(pid);

    restarted = await start();
    expect(restarted.startedHere).toBe(true);
    expect(await postmasterPid(dataDir)).not.toBe(pid);
    expect(await query(restarted.url, "SELECT body FROM notes")).toEqual([{ body: "kept" }]);
  });

  it("attaches to the server already running in the directory", async () => {
    const attached = await start({ port: await freeLoopbackPort() });
    expect(attached.startedHere).toBe(false);
    // It reaches the running server's port, not the one it was asked for.
    expect(attached.url).toContain(`@127.0.0.1:${port}/`);
    expect(await query(attached.url, "SELECT count(*)::int AS n FROM notes")).toEqual([{ n: 1 }]);

    await attached.stop();
    expect(await accepts(port)).toBe(true);
  });

  it("stops the server it started", async () => {
    await restarted.stop();
    expect(await accepts(port)).toBe(false);
    await expect(fs.access(path.join(dataDir, "postmaster.pid"))).rejects.toThrow();
  });

  it("says so clearly when another program holds the port", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
    try {
      const error = await start().catch((err: unknown) => err);
      expect(error).toBeInstanceOf(EmbeddedPostgresError);
      expect((error as Error).message).toBe(
        `Port ${port} on 127.0.0.1 is already in use by another program, so the embedded PostgreSQL cannot start; stop that program or set EMBEDDED_PG_PORT to a free port.`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    await expect(fs.access(path.join(dataDir, "postmaster.pid"))).rejects.toThrow();
  });

  it("refuses a directory that holds something other than a cluster", async () => {
    const other = path.join(root, "not-a-cluster");
    await fs.mkdir(other);
    await fs.writeFile(path.join(other, "notes.txt"), "mine");
    await expect(start({ dataDir: other })).rejects.toThrow(
      `${other} exists but is not a PostgreSQL data directory; empty or remove it, or set EMBEDDED_PG_DIR to another directory.`,
    );
  });
});

async function query(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

async function postmasterPid(dataDir: string): Promise<number> {
  const text = await fs.readFile(path.join(dataDir, "postmaster.pid"), "utf8");
  return Number.parseInt(text, 10);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
