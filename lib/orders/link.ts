import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";
import { orderPagePath } from "./paths";

// An order's page is reached from the shopper's mail without signing in, so its address carries
// proof that the store wrote it: an HMAC of the intent id under the server's secret. A guessed or
// altered id fails the check; the link works as long as AUTH_SECRET stays the same.

/** Separates these MACs from anything else the same secret signs. */
const PURPOSE = "giftkey:order-link:v1:";

/** The `t` parameter of an intent's order link: HMAC-SHA256 of its id, base64url (43 characters). */
export function orderLinkToken(intentId: string): string {
  return createHmac("sha256", authSecret())
    .update(PURPOSE + intentId.toLowerCase())
    .digest("base64url");
}

/** Whether `token` is the order link's `t` for this intent; constant-time, false for anything malformed. */
export function verifyOrderLinkToken(intentId: string, token: string | null | undefined): boolean {
  if (typeof token !== "string" || token.length !== 43) return false;
  const expected = Buffer.from(orderLinkToken(intentId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `/orders/{id}?t=…`, the path of an intent's order page with its proof. */
export function orderLinkPath(intentId: string): string {
  return `${orderPagePath(intentId)}?t=${orderLinkToken(intentId)}`;
}

/** The absolute order link for mail: `origin` is the store's public origin (lib/http/public-origin.ts). */
export function orderLinkUrl(origin: string, intentId: string): string {
  return `${origin.replace(/\/$/, "")}${orderLinkPath(intentId)}`;
}
