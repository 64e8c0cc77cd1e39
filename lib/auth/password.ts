import "server-only";
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * scrypt at N = 2^15, r = 8, p = 1: 32 MiB and about 100 ms per hash on this project's 2-core
 * machine (2^14: 50 ms, 2^16: 220 ms, 2^17: 530 ms). Slow enough that a leaked table costs an
 * attacker dearly, fast enough that a sign-in does not keep the shopper waiting.
 */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

// Stored parameters beyond these are refused rather than computed: a tampered row must not be
// able to make one sign-in allocate gigabytes.
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  // Node's default maxmem (32 MiB) is exactly 128 * N * r at 2^15; leave headroom.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(normalize(password), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** The same characters typed on two keyboards can arrive as different code points; NFKC makes them one. */
function normalize(password: string): string {
  return password.normalize("NFKC");
}

/** `scrypt$N$r$p$salt$hash`, salt and hash base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, SCRYPT_PARAMS);
  const { N, r, p } = SCRYPT_PARAMS;
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map((v) => (/^[1-9]\d{0,7}$/.test(v ?? "") ? Number(v) : NaN)) as [number, number, number];
  if (!(N > 1 && N <= MAX_N && (N & (N - 1)) === 0 && r >= 1 && r <= MAX_R && p >= 1 && p <= MAX_P)) return null;
  const salt = Buffer.from(parts[4] ?? "", "base64url");
  const key = Buffer.from(parts[5] ?? "", "base64url");
  if (salt.length < 8 || key.length < 16) return null;
  return { N, r, p, salt, key };
}

/** Constant-time comparison; false (never an exception) for a wrong password or an unreadable hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed);
  return candidate.length === parsed.key.length && timingSafeEqual(candidate, parsed.key);
}

/** True when a hash was made with weaker parameters than today's, so a sign-in can upgrade it. */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  return !parsed || parsed.N < SCRYPT_PARAMS.N || parsed.r < SCRYPT_PARAMS.r || parsed.p < SCRYPT_PARAMS.p;
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the time of one verification without a stored hash, so "no such e-mail" and "wrong
 * password" take as long as each other and the timing does not tell which accounts exist.
 */
export async function burnVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword("timing-equaliser");
  await verifyPassword(password, await dummyHash);
}
