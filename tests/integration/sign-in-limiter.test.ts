import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limitSignIn } from "@/lib/auth/sign-in-limiter";
import { env } from "@/lib/env";
import { registerUser, verifyUserCredentials } from "@/lib/services/users";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

const LIMIT = env.RATE_LIMIT_SIGNIN;
const PASSWORD = "a long and right password";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(() => t?.close());

/** A new account, and a sign-in that counts how many password verifications really ran. */
async function account() {
  const email = `limited-${crypto.randomBytes(4).toString("hex")}@example.com`;
  const result = await registerUser(t.db, { email, password: PASSWORD });
  if (!result.ok) throw new Error("sign-up refused");
  let verified = 0;
  const signIn = (password: string, address: string, who = email) =>
    limitSignIn(t.db, who, address, () => {
      verified++;
      return verifyUserCredentials(t.db, { email: who, password });
    });
  return { email, signIn, verified: () => verified };
}

const address = () => `198.18.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 254)}`;

describe("the sign-in limiter", () => {
  it("judges at most the limit of 150 concurrent wrong passwords for one account from one address", async () => {
    const { signIn, verified } = await account();
    const from = address();
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => signIn(`wrong guess ${i}`, from)));
    expect(verified()).toBe(LIMIT);
    expect(results.filter((r) => !r.ok && r.reason === "invalid")).toHaveLength(LIMIT);
    expect(results.filter((r) => !r.ok && r.reason === "rate_limited")).toHaveLength(150 - LIMIT);
  });

  it("locks the guessing address out of the account, not the owner: the right password works from another address", async () => {
    const { signIn } = await account();
    const attacker = address();
    for (let i = 0; i < LIMIT; i++) expect(await signIn(`guess ${i}`, attacker)).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn(PASSWORD, attacker)).toEqual({ ok: false, reason: "rate_limited" });
    expect(await signIn(PASSWORD, address())).toMatchObject({ ok: true });
  });

  it("lets a guesser spread over many addresses try each address only a few times once the account is under attack, and the owner still in", async () => {
    const { signIn, verified } = await account();
    const attackers = Array.from({ length: 12 }, address);
    // More than the limit of failures for the account, from addresses that each stay under their own limit.
    for (const from of attackers.slice(0, 4)) for (let i = 0; i < 3; i++) await signIn(`spread ${i}`, from);
    const before = verified();
    const burst = await Promise.all(attackers.slice(4).flatMap((from) => Array.from({ length: 10 }, (_, i) => signIn(`burst ${i}`, from))));
    expect(verified() - before).toBeLessThanOrEqual(8 * 3);
    expect(burst.filter((r) => !r.ok && r.reason === "rate_limited").length).toBeGreaterThanOrEqual(8 * 7);
    expect(await signIn(PASSWORD, address())).toMatchObject({ ok: true });
  });

  it("gives a correct sign-in's attempt back, so people behind one address who type their password right are never held up", async () => {
    const office = address();
    const people = await Promise.all(Array.from({ length: 5 }, account));
    for (let round = 0; round < 10; round++) {
      for (const person of people) expect(await person.signIn(PASSWORD, office)).toMatchObject({ ok: true });
    }
    // One colleague's typos count against that colleague alone, at this address.
    for (let i = 0; i < LIMIT; i++) await people[0]!.signIn(`typo ${i}`, office);
    expect(await people[0]!.signIn(PASSWORD, office)).toEqual({ ok: false, reason: "rate_limited" });
    expect(await people[1]!.signIn(PASSWORD, office)).toMatchObject({ ok: true });
  });

  it("stops one address guessing across many accounts", async () => {
    const accounts = await Promise.all(Array.from({ length: 8 }, account));
    const from = address();
    const results = await Promise.all(accounts.flatMap((a) => Array.from({ length: LIMIT }, (_, i) => a.signIn(`sweep ${i}`, from))));
    const judged = accounts.reduce((n, a) => n + a.verified(), 0);
    expect(judged).toBe(3 * LIMIT);
    expect(results.filter((r) => !r.ok && r.reason === "rate_limited")).toHaveLength(8 * LIMIT - 3 * LIMIT);
  });
});
