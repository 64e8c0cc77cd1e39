import { describe, expect, it } from "vitest";
import { clearSignInFailures, MAX_FAILURES, recordSignInFailure, signInBlocked } from "./sign-in-limiter";

describe("sign-in limiter", () => {
  const t0 = 1_700_000_000_000;

  it("blocks an (e-mail, address) pair after MAX_FAILURES within 15 minutes, whatever the e-mail's case", () => {
    for (let i = 0; i < MAX_FAILURES - 1; i++) recordSignInFailure("Limit@Example.com", "10.0.0.1", t0 + i);
    expect(signInBlocked("limit@example.com", "10.0.0.1", t0 + 100)).toBe(false);
    recordSignInFailure("limit@example.com", "10.0.0.1", t0 + 200);
    expect(signInBlocked("LIMIT@example.com", "10.0.0.1", t0 + 300)).toBe(true);
    // Another address, or another account from the same address, is not affected.
    expect(signInBlocked("limit@example.com", "10.0.0.2", t0 + 300)).toBe(false);
    expect(signInBlocked("other@example.com", "10.0.0.1", t0 + 300)).toBe(false);
    // The window slides: once the oldest failures are 15 minutes old, tries resume.
    expect(signInBlocked("limit@example.com", "10.0.0.1", t0 + 15 * 60_000 + 1)).toBe(false);
  });

  it("forgets the failures after a successful sign-in", () => {
    for (let i = 0; i < MAX_FAILURES; i++) recordSignInFailure("reset@example.com", "10.0.0.3", t0);
    expect(signInBlocked("reset@example.com", "10.0.0.3", t0 + 1)).toBe(true);
    clearSignInFailures("reset@example.com", "10.0.0.3");
    expect(signInBlocked("reset@example.com", "10.0.0.3", t0 + 1)).toBe(false);
  });
});
