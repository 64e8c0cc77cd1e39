// Times each step of a sign-up and the sign-in that follows it: npm run measure:sign-up [-- runs]
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { createDb, createPool } from "@/lib/db/client";
import { resolveDatabaseUrl } from "@/lib/db/embedded";
import { signUpRequestSchema } from "@/lib/schemas/account";
import { POLICIES, hitRateLimit } from "@/lib/services/rate-limits";
import { registerUser, verifyUserCredentials } from "@/lib/services/users";

async function timed<T>(times: Record<string, number[]>, step: string, run: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const result = await run();
  (times[step] ??= []).push(performance.now() - started);
  return result;
}

async function main(runs: number): Promise<void> {
  const database = await resolveDatabaseUrl();
  const pool = createPool(database.url, 4);
  try {
    const db = createDb(pool);
    const times: Record<string, number[]> = {};
    for (let i = 0; i < runs; i++) {
      const input = { email: `measure-${crypto.randomBytes(6).toString("hex")}@example.com`, password: "correct horse battery 42" };
      await timed(times, "rate limit (per address)", () => hitRateLimit(db, `ip:measure-${i}`, POLICIES.ip));
      const parsed = await timed(times, "validate (schema, strength estimate)", () => signUpRequestSchema.parseAsync(input));
      await timed(times, "hash password (scrypt)", () => hashPassword(parsed.password));
      // React Email does not render under this script's react-server condition: the confirmation mail
      // is left to the worker here, so this step lacks its rendering (a sign-up on the site renders it).
      await timed(times, "registerUser (hash + insert + confirmation)", () => registerUser(db, parsed, { deferMail: true }));
      await timed(times, "sign-in: verifyUserCredentials (scrypt)", () => verifyUserCredentials(db, input));
    }
    const stored = await hashPassword("x");
    await timed(times, "two scrypt at once (a second shopper)", () =>
      Promise.all([verifyPassword("x", stored), verifyPassword("x", stored)]),
    );
    await timed(times, "four scrypt at once", () => Promise.all([0, 1, 2, 3].map(() => verifyPassword("x", stored))));
    console.log("| step | median ms | max ms |\n|---|---|---|");
    for (const [step, values] of Object.entries(times)) {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(`| ${step} | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} | ${sorted.at(-1)!.toFixed(1)} |`);
    }
    await db.execute(sql`DELETE FROM users WHERE email LIKE 'measure-%@example.com'`);
  } finally {
    await pool.end();
    await database.stop();
  }
}

main(Number(process.argv[2] ?? 5)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
