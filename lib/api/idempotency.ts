import "server-only";
import { createHash } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database, Transaction } from "@/lib/db/client";
import { idempotencyKeys } from "@/lib/db/schema";
import { DomainError } from "@/lib/errors";
import type { Ownership } from "@/lib/services/tokens";

const IDEMPOTENCY_HEADER = "Idempotency-Key";
const REPLAYED_HEADER = "Idempotent-Replayed";
/** How long a key answers with its first response; after that it is as if never used. */
const IDEMPOTENCY_KEY_TTL_HOURS = 24;

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** The header's key, null when the request sent none; a malformed one is 400. */
export function readIdempotencyKey(request: Request): string | null {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (!KEY_PATTERN.test(key)) {
    throw new DomainError("invalid_idempotency_key", { header: IDEMPOTENCY_HEADER }, IDEMPOTENCY_HEADER);
  }
  return key;
}

/** The same JSON with object keys sorted, so key order and whitespace do not make two bodies differ. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

function requestHash(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body)).digest("hex");
}

/** Carries a response that must not be stored out of the transaction, which it rolls back. */
class NotStored extends Error {
  constructor(readonly response: Response) {
    super("response not stored");
  }
}

export interface IdempotentRequest extends Ownership {
  key: string;
  /** `POST /api/v1/gear`: a key is bound to the endpoint it was first used on. */
  route: string;
  /** The parsed JSON body as sent (before validation's transforms). */
  body: unknown;
}

/**
 * Runs `handler` at most once per (owner, key) within 24 hours and replays its response after;
 * for a guest's token, per (owner, token, key) (see `ownershipOf`).
 *
 * One transaction: the key's row is inserted first, so a concurrent request with the same key
 * blocks on the primary key until this one ends, and then replays what it stored. The handler
 * writes inside the same transaction, and its response is stored beside the key before commit:
 * the intent and its key commit together or not at all. Only a 2xx response is stored; an error
 * rolls everything back, so a corrected retry with the same key runs again (as Stripe does for
 * requests that failed validation or conflicted).
 */
export async function withIdempotency(
  db: Database,
  request: IdempotentRequest,
  handler: (tx: Transaction) => Promise<Response>,
): Promise<Response> {
  const hash = requestHash(request.body);
  try {
    return await db.transaction(async (tx) => {
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await claimKey(tx, request, hash)) return runAndStore(tx, request, handler);
        const stored = await readKey(tx, request);
        // Gone between the two statements (expired and purged): claim it afresh.
        if (!stored) continue;
        if (stored.requestRoute !== request.route || stored.requestHash !== hash) {
          const usedFor = stored.requestRoute !== request.route ? stored.requestRoute : null;
          throw new DomainError("idempotency_key_reused", { header: IDEMPOTENCY_HEADER, key: request.key, usedFor }, IDEMPOTENCY_HEADER);
        }
        return new Response(stored.responseBody, {
          status: stored.responseStatus,
          headers: { "Content-Type": "application/json", [REPLAYED_HEADER]: "true" },
        });
      }
      throw new Error(`could not claim idempotency key ${request.key}`);
    });
  } catch (err) {
    if (err instanceof NotStored) return err.response;
    throw err;
  }
}

/**
 * Inserts the key's row, or takes over an expired one. True when this request owns the key now;
 * false when a live row exists (after waiting for its transaction to end, if it was in flight).
 */
async function claimKey(tx: Transaction, request: IdempotentRequest, hash: string): Promise<boolean> {
  const fresh = {
    requestRoute: request.route,
    requestHash: hash,
    // Placeholders, replaced before commit: no other transaction ever sees them.
    responseStatus: 0,
    responseBody: "",
    intentId: null,
    createdAt: sql`now()`,
    expiresAt: sql`now() + make_interval(hours => ${IDEMPOTENCY_KEY_TTL_HOURS})`,
  };
  const claimed = await tx
    .insert(idempotencyKeys)
    .values({ userId: request.userId, tokenId: request.tokenId, key: request.key, ...fresh })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.tokenId, idempotencyKeys.key],
      set: fresh,
      setWhere: sql`${idempotencyKeys.expiresAt} <= now()`,
    })
    .returning({ key: idempotencyKeys.key });
  return claimed.length > 0;
}

async function readKey(tx: Transaction, request: IdempotentRequest) {
  const [row] = await tx
    .select({
      requestRoute: idempotencyKeys.requestRoute,
      requestHash: idempotencyKeys.requestHash,
      responseStatus: idempotencyKeys.responseStatus,
      responseBody: idempotencyKeys.responseBody,
    })
    .from(idempotencyKeys)
    .where(and(sameKey(request), sql`${idempotencyKeys.expiresAt} > now()`));
  return row;
}

/** The row of this request's key; a real owner's keys are those without a token. */
function sameKey(request: IdempotentRequest) {
  return and(
    eq(idempotencyKeys.userId, request.userId),
    request.tokenId === null ? isNull(idempotencyKeys.tokenId) : eq(idempotencyKeys.tokenId, request.tokenId),
    eq(idempotencyKeys.key, request.key),
  );
}

async function runAndStore(
  tx: Transaction,
  request: IdempotentRequest,
  handler: (tx: Transaction) => Promise<Response>,
): Promise<Response> {
  const response = await handler(tx);
  if (!response.ok) throw new NotStored(response);
  const body = await response.text();
  await tx
    .update(idempotencyKeys)
    .set({ responseStatus: response.status, responseBody: body, intentId: intentIdOf(body) })
    .where(sameKey(request));
  return new Response(body, { status: response.status, headers: response.headers });
}

/** The intent a creation answered with, so the key goes when its intent does. */
function intentIdOf(body: string): string | null {
  try {
    const id = (JSON.parse(body) as { intentId?: unknown }).intentId;
    return typeof id === "string" && /^[0-9a-f-]{36}$/i.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** Deletes keys past their 24 hours, at most `limit` per call; returns how many. */
export async function purgeExpiredIdempotencyKeys(db: Database, { limit = 1000 }: { limit?: number } = {}): Promise<number> {
  // By ctid: a row's key columns include a nullable token_id, which `IN` would never match.
  const { rows } = await db.execute<{ key: string }>(sql`
    DELETE FROM idempotency_keys
    WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM idempotency_keys
      WHERE expires_at <= now()
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED))
    RETURNING key`);
  return rows.length;
}
