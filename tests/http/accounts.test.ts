import crypto from "node:crypto";
import { beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { createDb, createPool } from "@/lib/db/client";
import { registerUser } from "@/lib/services/users";
import { Browser } from "./browser";
import { api, appQuery } from "./support";

const base = inject("appBaseUrl");
const password = "correct horse battery";
let email: string;

beforeAll(async () => {
  email = `http-${crypto.randomBytes(4).toString("hex")}@example.com`;
  const pool = createPool(inject("appDatabaseUrl"), 1);
  try {
    const result = await registerUser(createDb(pool), { email, password });
    if (!result.ok) throw new Error("could not create the test account");
  } finally {
    await pool.end();
  }
});

const SESSION_COOKIE = "next-auth.session-token";

describe("sign-in over HTTP (next-auth credentials)", () => {
  // The sign-in windows are fixed and aligned to the clock (15 min): a test that counts up to the
  // limit must not straddle a window's end, or its last attempts land in a fresh window.
  beforeEach(async () => {
    const intoWindow = (Date.now() / 1000) % 900;
    if (intoWindow > 880) await new Promise((r) => setTimeout(r, (901 - intoWindow) * 1000));
  }, 30_000);

  it("signs in with the right password, in any letter case of the e-mail, and the session names the account", async () => {
    const browser = new Browser();
    expect(await browser.signIn(email.toUpperCase(), password)).toEqual({ status: 200, error: null });
    expect(browser.has(SESSION_COOKIE)).toBe(true);
    const [user] = await appQuery<{ id: string }>("SELECT id FROM users WHERE email = $1", [email]);
    expect((await browser.session()).user).toEqual({ id: user!.id, email, name: null });
  });

  it.each([
    ["a wrong password", () => email, "not the password"],
    ["an unknown e-mail", () => "nobody-here@example.com", password],
    ["the storefront's guest owner, which has no password", () => "guests@storefront.giftkey.invalid", ""],
  ])("refuses %s with CredentialsSignin and no session", async (_why, who, withPassword) => {
    const browser = new Browser();
    expect(await browser.signIn(who(), withPassword)).toEqual({ status: 401, error: "CredentialsSignin" });
    expect(browser.has(SESSION_COOKIE)).toBe(false);
    expect(await browser.session()).toEqual({});
  });

  it("refuses a sign-in without the CSRF double-submit token", async () => {
    const browser = new Browser();
    const result = await browser.signIn(email, password, false);
    expect(browser.has(SESSION_COOKIE)).toBe(false);
    expect(result.error).toBeNull();
    expect(await browser.session()).toEqual({});
  });

  it("stops password guessing from an address after 10 failures for one account, in the database, without locking the owner out", async () => {
    const target = `http-guessed-${crypto.randomBytes(4).toString("hex")}@example.com`;
    const pool = createPool(inject("appDatabaseUrl"), 1);
    try {
      expect((await registerUser(createDb(pool), { email: target, password })).ok).toBe(true);
    } finally {
      await pool.end();
    }
    const attacker = new Browser("203.0.113.7");
    for (let i = 0; i < 10; i++) expect((await attacker.signIn(target, `guess ${i}`)).error).toBe("CredentialsSignin");
    // Even the right password waits out the window now, from this address ...
    expect(await attacker.signIn(target, password)).toEqual({ status: 401, error: "TooManyAttempts" });
    expect(attacker.has(SESSION_COOKIE)).toBe(false);
    // ... but the owner, from anywhere else, signs in as before.
    expect((await new Browser("203.0.113.8").signIn(target, password)).error).toBeNull();
    const [pair] = await appQuery<{ count: number }>("SELECT count FROM rate_limits WHERE key LIKE 'signin-pair:203.0.113.7|%'");
    expect(pair?.count).toBe(11);
  });

  it("ends the session on sign-out, for a copy of its cookie too", async () => {
    const browser = new Browser();
    expect((await browser.signIn(email, password)).error).toBeNull();
    const stolen = browser.copy();
    expect((await stolen.session()).user?.email).toBe(email);
    expect(await browser.post("/api/auth/signout", { callbackUrl: base })).toEqual({ status: 200, error: null });
    expect(await stolen.session()).toEqual({});
    expect(stolen.has(SESSION_COOKIE)).toBe(false);
    // Signing in again makes a session that works.
    expect((await browser.signIn(email, password)).error).toBeNull();
    expect((await browser.session()).user?.email).toBe(email);
  });

  it("gives a signed-in shopper storefront tokens of their own, and a guest the guest owner's", async () => {
    const browser = new Browser();
    const guest = await browser.storefrontToken();
    expect(guest.owner).toBe("guest");
    await browser.signIn(email, password);
    const mine = await browser.storefrontToken();
    expect(mine.owner).toBe("user");
    const owners = await appQuery<{ email: string; purpose: string }>(
      "SELECT u.email, t.purpose FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1",
      [crypto.createHash("sha256").update(mine.token).digest("hex")],
    );
    expect(owners).toEqual([{ email, purpose: "storefront" }]);

    expect(await browser.post("/api/auth/signout", { callbackUrl: base })).toEqual({ status: 200, error: null });
    expect(browser.has(SESSION_COOKIE)).toBe(false);
    expect((await browser.storefrontToken()).owner).toBe("guest");
  });
});

describe("a signed-in shopper's storefront token ends with the session", () => {
  /** A fresh account, signed in, with a storefront token that works. */
  async function signedInWithToken() {
    const who = `http-storefront-${crypto.randomBytes(4).toString("hex")}@example.com`;
    const pool = createPool(inject("appDatabaseUrl"), 1);
    try {
      expect((await registerUser(createDb(pool), { email: who, password })).ok).toBe(true);
    } finally {
      await pool.end();
    }
    const browser = new Browser();
    expect((await browser.signIn(who, password)).error).toBeNull();
    const { token, owner } = await browser.storefrontToken();
    expect(owner).toBe("user");
    // Used once, so the lookup is in the server's token cache, as a page's requests would leave it.
    expect((await api("/api/v1/gifts/catalog?limit=1", { token })).status).toBe(200);
    return { browser, token };
  }

  it("is refused with 401 at once after signing out", async () => {
    const { browser, token } = await signedInWithToken();
    expect(await browser.post("/api/auth/signout", { callbackUrl: base })).toEqual({ status: 200, error: null });
    const after = await api("/api/v1/gifts/catalog?limit=1", { token });
    expect([after.status, after.body.reason]).toEqual([401, "token_revoked"]);
  });

  it("is refused with 401 at once after a password change, and a token of the new session works", async () => {
    const { browser, token } = await signedInWithToken();
    const changed = await browser.action("/account", "app/account/actions.ts", "changePasswordAction", [
      { currentPassword: password, newPassword: "violet tundra ferry oak 8" },
    ]);
    expect(changed).toEqual({ ok: true });
    const after = await api("/api/v1/gifts/catalog?limit=1", { token });
    expect([after.status, after.body.reason]).toEqual([401, "token_revoked"]);
    // The change ended this browser's session too: a new token here is a guest's.
    expect((await browser.storefrontToken()).owner).toBe("guest");
  });
});

describe("account pages over HTTP", () => {
  it.each(["/sign-in", "/sign-up"])(
    "%s posts its form, so a submit before the script runs keeps the password out of the URL",
    async (path) => {
      const html = await (await new Browser().fetch(path)).text();
      expect(html).toMatch(/<form[^>]*method="post"/);
      expect(html).toMatch(/<input[^>]*type="password"/);
    },
  );

  it.each([
    ["/account", "/sign-in?callbackUrl=%2Faccount"],
    ["/account?before=00000000-0000-0000-0000-000000000000", "/sign-in?callbackUrl=%2Faccount"],
  ])("%s sends a guest to sign in and back", async (path, location) => {
    const res = await new Browser().fetch(path);
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe(location);
  });

  it("sends a signed-in shopper from the sign-in page to where they were going, and only to this site", async () => {
    const browser = new Browser();
    await browser.signIn(email, password);
    const cases: [string, string][] = [
      ["/sign-in?callbackUrl=%2Fdocs%2Fapi", "/docs/api"],
      ["/sign-in?callbackUrl=https%3A%2F%2Fevil.example%2F", "/account"],
      ["/sign-in?callbackUrl=%2F%2Fevil.example", "/account"],
      ["/sign-up", "/account"],
    ];
    for (const [path, location] of cases) {
      const res = await browser.fetch(path);
      expect([path, res.status, res.headers.get("location")]).toEqual([path, 307, location]);
    }
    const account = await browser.fetch("/account");
    expect(account.status).toBe(200);
    expect(account.headers.get("cache-control")).toMatch(/no-store/);
    const html = await account.text();
    expect(html).toContain(email);
    expect(html).toContain("API-токены");
  });
});
