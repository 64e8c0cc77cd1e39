import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freeLoopbackPort, stopChild } from "@/scripts/lib/processes";

const root = path.resolve(import.meta.dirname, "../..");
const SITE_CONFIG = path.join(root, "deploy/nginx/giftkey.conf");
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => fs.existsSync(p));

export interface AccessLogEntry {
  /** Seconds since the epoch when nginx finished the request (nginx's $msec), in milliseconds. */
  at: number;
  method: string;
  uri: string;
  status: number;
  /** Every instance nginx tried for this request, in order ("-" when none was). */
  upstreams: string[];
}

export interface Nginx {
  url: string;
  child: ChildProcess;
  accessLog(): AccessLogEntry[];
  stop(): Promise<void>;
}

/**
 * Debian's nginx in the foreground on a free loopback port, running deploy/nginx/giftkey.conf with
 * its upstream servers, listen address and log directory replaced: the shipped file is what is tested.
 */
export async function startNginx(name: string, upstreams: string[]): Promise<Nginx> {
  if (!NGINX) throw new Error("nginx is not installed (apt-get install nginx; .ci/run installs it)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gk-nginx-${name}-`));
  const port = await freeLoopbackPort();
  const site = renderSite(fs.readFileSync(SITE_CONFIG, "utf8"), { upstreams, listen: `127.0.0.1:${port}`, logDir: dir });
  fs.writeFileSync(path.join(dir, "giftkey.conf"), site);
  const temp = (what: string) => `${what}_temp_path ${path.join(dir, what)};`;
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    [
      // Started as root, nginx's workers would drop to `nobody`, which cannot enter the 0700 temp dir.
      process.getuid?.() === 0 ? "user root;" : "",
      "daemon off;",
      "worker_processes 2;",
      `pid ${path.join(dir, "nginx.pid")};`,
      `error_log ${path.join(dir, "error.log")} notice;`,
      "events { worker_connections 2048; }",
      "http {",
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp),
      `  include ${path.join(dir, "giftkey.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  const log = fs.openSync(path.join(dir, "stdio.log"), "w");
  const child = spawn(NGINX, ["-p", `${dir}/`, "-e", path.join(dir, "error.log"), "-c", path.join(dir, "nginx.conf")], {
    stdio: ["ignore", log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${readErrors(dir)}`);
    if (
      await fetch(`${url}/nginx-health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 10 s:\n${readErrors(dir)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    child,
    accessLog: () => parseAccessLog(fs.readFileSync(path.join(dir, "giftkey-access.log"), "utf8")),
    async stop() {
      await stopChild(child, 5_000);
      fs.closeSync(log);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The shipped site file with this run's addresses; each replacement must find its target. */
export function renderSite(config: string, { upstreams, listen, logDir }: { upstreams: string[]; listen: string; logDir: string }): string {
  const serverLine = /^(\s*)server 127\.0\.0\.1:\d+ (.*);$/gm;
  const servers = [...config.matchAll(serverLine)];
  if (servers.length === 0) throw new Error("deploy/nginx/giftkey.conf: no `server 127.0.0.1:PORT ...;` lines in its upstream");
  const [, indent, params] = servers[0]!;
  let out = config.replace(serverLine, "");
  out = out.replace(/^(\s*)least_conn;$/m, (line) => `${line}\n${upstreams.map((u) => `${indent}server ${u} ${params};`).join("\n")}`);
  const replaced = (pattern: RegExp, value: string) => {
    if (!pattern.test(out)) throw new Error(`deploy/nginx/giftkey.conf: expected ${pattern} in the site file`);
    out = out.replace(pattern, value);
  };
  replaced(/^(\s*)listen 80;$/m, `$1listen ${listen};`);
  replaced(/\/var\/log\/nginx\//g, `${logDir}/`);
  if (!upstreams.every((u) => out.includes(`server ${u} `)))
    throw new Error("deploy/nginx/giftkey.conf: the upstream has no `least_conn;` line to put servers after");
  return out;
}

function parseAccessLog(text: string): AccessLogEntry[] {
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const m = /^(\S+) (\S+) (\S+) (\d+) "([^"]*)" "[^"]*" \S+$/.exec(line);
      if (!m) throw new Error(`unexpected access log line: ${line}`);
      return { at: Number(m[1]) * 1000, method: m[2]!, uri: m[3]!, status: Number(m[4]), upstreams: m[5]!.split(/, | : /) };
    });
}

function readErrors(dir: string): string {
  const tail = (f: string) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), "utf8").slice(-3000) : "");
  return ["error.log", "stdio.log"].map(tail).join("\n");
}
