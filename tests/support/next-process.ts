import crypto from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freeLoopbackPort } from "@/scripts/lib/processes";

export interface NextProcess {
  baseUrl: string;
  child: ChildProcess;
  logFile: string;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

const root = path.resolve(import.meta.dirname, "../..");

/** `next start` of the existing build on a free loopback port, with its own environment and log. */
export async function startNextProcess(name: string, env: Record<string, string>): Promise<NextProcess> {
  const port = await freeLoopbackPort();
  const logFile = path.join(root, `.data/test-logs/${name}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, "w");
  const child = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", AUTH_SECRET: crypto.randomBytes(32).toString("base64url"), PORT: String(port), ...env },
    stdio: ["ignore", log, log],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => {
      fs.closeSync(log);
      resolve({ code, signal, at: Date.now() });
    }),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${fs.readFileSync(logFile, "utf8")}`);
    const ok = await fetch(`${baseUrl}/api/v1/openapi.json`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`next start did not answer within 60 s:\n${fs.readFileSync(logFile, "utf8")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, child, logFile, exited };
}
