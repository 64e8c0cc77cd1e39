import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "./secret";

// The link in an e-mail confirmation: `/confirm-email?token=<id>.<proof>`, where the proof is an
// HMAC of the confirmation's id under the server's secret. The database keeps the id, its expiry
// and its use, never a usable token; the outbox keeps the message with PROOF_PLACEHOLDER in the
// link, and the proof is put in only as the message is sent (or shown on /dev/mail), so neither a
// reader of the database nor a staff member reading the outbox can confirm someone else's address.

const PURPOSE = "giftkey:email-confirmation:v1:";
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
/** Stands for the proof in a stored message; letters only, so HTML and URLs carry it unchanged. */
export const PROOF_PLACEHOLDER = "proofAddedWhenSent";

export const CONFIRM_EMAIL_PATH = "/confirm-email";

function proof(id: string): string {
  return createHmac("sha256", authSecret())
    .update(PURPOSE + id.toLowerCase())
    .digest("base64url");
}

/** The link as stored in the outbox: the proof is PROOF_PLACEHOLDER until `withConfirmationProofs`. */
export function storedConfirmationUrl(origin: string, id: string): string {
  return `${origin.replace(/\/$/, "")}${CONFIRM_EMAIL_PATH}?token=${id}.${PROOF_PLACEHOLDER}`;
}

/** Puts the proof into every stored confirmation link of a message's text. */
export function withConfirmationProofs(text: string): string {
  return text.replace(new RegExp(`(${UUID})\\.${PROOF_PLACEHOLDER}`, "g"), (_, id: string) => `${id}.${proof(id)}`);
}

/** The confirmation id a token proves, or null for anything forged, altered or malformed. */
export function confirmationIdOf(token: unknown): string | null {
  if (typeof token !== "string") return null;
  const match = new RegExp(`^(${UUID})\\.([A-Za-z0-9_-]{43})$`).exec(token);
  if (!match) return null;
  const [, id, given] = match as unknown as [string, string, string];
  const expected = Buffer.from(proof(id));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? id : null;
}
