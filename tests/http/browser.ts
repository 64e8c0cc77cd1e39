import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, inject } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** A server action's id in the build under test, by its file and export (Next's server reference manifest). */
function actionId(file: string, exportedName: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, ".next/server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  const id = Object.entries(manifest.node).find(([, a]) => a.filename === file && a.exportedName === exportedName)?.[0];
  if (!id) throw new Error(`no server action ${exportedName} in ${file} in this build`);
  return id;
}

/** A tiny cookie jar: what a browser would send back to this origin. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  /**
   * Each test its own client address, so the sign-in limiter of one test does not affect another;
   * the shared server unless a test runs its own.
   */
  constructor(
    private readonly address = `198.51.100.${crypto.randomInt(1, 254)}`,
    readonly base = inject("appBaseUrl"),
  ) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("x-forwarded-for", this.address);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(`${this.base}${path}`, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  /** Another browser holding a copy of this one's cookies, as a thief of the cookie would. */
  copy(): Browser {
    const other = new Browser(this.address, this.base);
    for (const [k, v] of this.cookies) other.cookies.set(k, v);
    return other;
  }

  async post(path: string, fields: Record<string, string>, withCsrf = true): Promise<{ status: number; error: string | null }> {
    const csrfToken = withCsrf ? ((await (await this.fetch("/api/auth/csrf")).json()) as { csrfToken: string }).csrfToken : "forged";
    const res = await this.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...fields, csrfToken, json: "true" }),
    });
    const { url } = (await res.json()) as { url: string };
    return { status: res.status, error: new URL(url, this.base).searchParams.get("error") };
  }

  signIn(withEmail: string, withPassword: string, withCsrf = true) {
    return this.post(
      "/api/auth/callback/credentials",
      { email: withEmail, password: withPassword, callbackUrl: `${this.base}/account` },
      withCsrf,
    );
  }

  async session(): Promise<{ user?: { email?: string; id?: string } }> {
    return (await this.fetch("/api/auth/session")).json();
  }

  /**
   * Calls a server action as the page's script does (same origin, its id from the build), and
   * returns what the action returned.
   */
  async action<T = unknown>(page: string, file: string, exportedName: string, args: unknown[]): Promise<T> {
    const res = await this.fetch(page, {
      method: "POST",
      headers: {
        "next-action": actionId(file, exportedName),
        origin: this.base,
        accept: "text/x-component",
        "content-type": "text/plain;charset=UTF-8",
      },
      body: JSON.stringify(args),
    });
    expect(res.status).toBe(200);
    // The RSC payload: line `1:` is the action's return value.
    const line = (await res.text()).split("\n").find((l) => l.startsWith("1:"));
    if (!line) throw new Error("the action returned nothing");
    return JSON.parse(line.slice(2)) as T;
  }

  async storefrontToken(): Promise<{ token: string; owner: string }> {
    const res = await this.fetch("/api/storefront/token", { method: "POST", headers: { "sec-fetch-site": "same-origin" } });
    expect(res.status).toBe(200);
    return res.json();
  }
}
