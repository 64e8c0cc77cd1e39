import type { JWT } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAuthOptions } from "@/lib/auth/options";
import type { Database } from "@/lib/db/client";
import { authenticateToken, issueStorefrontToken } from "@/lib/services/tokens";
import { changePassword, endSessions, registerUser, verifyUserCredentials } from "@/lib/services/users";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  // The auth callbacks use the process-wide database: make it this test's.
  (globalThis as unknown as { gkDb?: Database }).gkDb = t.db;
});

afterAll(async () => {
  delete (globalThis as unknown as { gkDb?: Database }).gkDb;
  await t?.close();
});

const callbacks = () => getAuthOptions().callbacks!;
const signOutEvent = (token: JWT) => getAuthOptions().events!.signOut!({ token, session: null as never });

/** The token next-auth makes at sign-in, and what a later read of that session gets. */
async function signIn(user: { id: string; email: string }): Promise<JWT> {
  return (await callbacks().jwt!({ token: {}, user: { ...user, name: null }, account: null, trigger: "signIn" } as never)) as JWT;
}
const read = (token: JWT) => callbacks().jwt!({ token: { ...token } } as never);

async function account(email: string) {
  const result = await registerUser(t.db, { email, password: "plum 7 kayak" });
  if (!result.ok) throw new Error("sign-up refused");
  return result.user;
}

describe("sessions", () => {
  it("stay valid while the account's session version is the one they were issued with", async () => {
    const user = await account("session-kept@example.com");
    const token = await signIn(user);
    expect(token).toMatchObject({ sub: user.id, email: user.email, sv: 0 });
    await expect(read(token)).resolves.toMatchObject({ sub: user.id });
  });

  it("end, every one of them, when the account signs out; a new sign-in works", async () => {
    const user = await account("session-signed-out@example.com");
    const laptop = await signIn(user);
    const phone = await signIn(user);
    await signOutEvent(laptop);
    await expect(read(laptop)).rejects.toThrow("SessionEnded");
    await expect(read(phone)).rejects.toThrow("SessionEnded");
    // A session from before session versions (no `sv`) ends too.
    await expect(read({ sub: user.id, email: user.email })).rejects.toThrow("SessionEnded");
    await expect(read(await signIn(user))).resolves.toMatchObject({ sub: user.id, sv: 1 });
  });

  it("end when the password changes, and only the new password opens the account", async () => {
    const user = await account("session-password@example.com");
    const before = await signIn(user);
    await changePassword(t.db, user.id, "a brand new phrase");
    await expect(read(before)).rejects.toThrow("SessionEnded");
    expect(await verifyUserCredentials(t.db, { email: user.email, password: "plum 7 kayak" })).toBeNull();
    expect(await verifyUserCredentials(t.db, { email: user.email, password: "a brand new phrase" })).toMatchObject({ id: user.id });
    await expect(read(await signIn(user))).resolves.toMatchObject({ sv: 1 });
  });

  it("end when the account is gone, or never named one", async () => {
    await expect(read({ sub: "00000000-0000-4000-8000-000000000000", sv: 0 })).rejects.toThrow("SessionEnded");
    await expect(read({ sv: 0 })).rejects.toThrow("SessionEnded");
  });
});

describe("a signed-in shopper's storefront tokens", () => {
  const works = async (token: string) => (await authenticateToken(t.db, token)).ok;

  it("end with their session: at sign-out, at a password change, and from every process's cache", async () => {
    const user = await account("storefront-ends@example.com");
    const session = await signIn(user);
    const { token } = await issueStorefrontToken(t.db, user.id, session.sv);
    expect(await works(token)).toBe(true);
    // Looked up twice: the second answer would come from the cache if tokens of a session were kept there.
    expect(await works(token)).toBe(true);
    await signOutEvent(session);
    expect(await authenticateToken(t.db, token)).toEqual({ ok: false, reason: "revoked" });

    const again = await signIn(user);
    const second = await issueStorefrontToken(t.db, user.id, again.sv);
    expect(await works(second.token)).toBe(true);
    await changePassword(t.db, user.id, "a brand new phrase");
    expect(await works(second.token)).toBe(false);
  });

  it("made for a session that ended while the request was on its way are over from the start", async () => {
    const user = await account("storefront-late@example.com");
    const session = await signIn(user);
    await endSessions(t.db, user.id);
    const { token } = await issueStorefrontToken(t.db, user.id, session.sv);
    expect(await authenticateToken(t.db, token)).toEqual({ ok: false, reason: "revoked" });
  });

  it("without a session named, belong to the account's current one", async () => {
    const user = await account("storefront-current@example.com");
    await endSessions(t.db, user.id);
    const { token } = await issueStorefrontToken(t.db, user.id);
    expect(await works(token)).toBe(true);
    await endSessions(t.db, user.id);
    expect(await works(token)).toBe(false);
  });
});
