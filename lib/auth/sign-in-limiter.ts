import "server-only";

const WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES = 10;
const MAX_KEYS = 50_000;

/** Failed sign-ins per (e-mail, client address): timestamps inside the window. */
const failures = new Map<string, number[]>();

const keyOf = (email: string, address: string) => `${email.trim().toLowerCase()}|${address}`;

function recent(key: string, now: number): number[] {
  const list = (failures.get(key) ?? []).filter((at) => now - at < WINDOW_MS);
  if (list.length) failures.set(key, list);
  else failures.delete(key);
  return list;
}

/**
 * A speed bump for password guessing from one place: after MAX_FAILURES wrong passwords for one
 * e-mail from one address within 15 minutes, further tries wait out the window. Per process; the
 * scrypt cost of every try is the bound across processes.
 */
export function signInBlocked(email: string, address: string, now = Date.now()): boolean {
  return recent(keyOf(email, address), now).length >= MAX_FAILURES;
}

export function recordSignInFailure(email: string, address: string, now = Date.now()): void {
  const key = keyOf(email, address);
  const list = recent(key, now);
  list.push(now);
  failures.set(key, list);
  if (failures.size > MAX_KEYS) failures.delete(failures.keys().next().value!);
}

export function clearSignInFailures(email: string, address: string): void {
  failures.delete(keyOf(email, address));
}
