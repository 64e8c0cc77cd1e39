import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { Database, DbExecutor } from "@/lib/db/client";
import { env } from "@/lib/env";
import { apiTokens, users } from "@/lib/db/schema";
import { SQLSTATE, sqlStateOf } from "@/lib/db/errors";
import { DomainError } from "@/lib/errors";
import { processSingleton } from "@/lib/singleton";
import { log } from "@/lib/log";
import { PARTNER_ONLY_SCOPES, type ApiScope } from "@/lib/schemas/tokens";
import { isPartner } from "./partner-status";

export const TOKEN_PREFIX = "gk_live_";
const TOKEN_PATTERN = /^gk_live_[A-Za-z0-9]{43}$/;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Shown in lists so a person can tell tokens apart; 4 random characters reveal nothing useful. */
const DISPLAY_PREFIX_LENGTH = TOKEN_PREFIX.length + 4;
const LAST_USED_PRECISION_MS = 60_000;

/** 256 bits from the CSPRNG, as 43 base62 characters after the recognisable prefix. */
export function generateToken(): string {
  let out = "";
  while (out.length < 43) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 * 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < 43) out += BASE62[byte % 62];
    }
  }
  return TOKEN_PREFIX + out;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export interface AuthToken {
  id: string;
  userId: string;
  name: string;
  scopes: ApiScope[];
  /** `storefront`: a browser session of the store's own pages (guests share one owner). */
  purpose: "api" | "storefront";
  /**
   * Owned by the storefront's guest owner, which every guest's token shares: what this token makes
   * (intents, Idempotency-Keys) is then its own alone, not its owner's (see `ownershipOf`).
   */
  guest: boolean;
}

/**
 * Whose intents a token may read and whose Idempotency-Keys it shares. A real owner's tokens share
 * both (a partner's second token sees what the first made). A guest's token has only its own
 * (`tokenId` set): all guests have one owner, and one guest must never read or replay another's.
 */
export interface Ownership {
  userId: string;
  tokenId: string | null;
}

export function ownershipOf(token: AuthToken): Ownership {
  return { userId: token.userId, tokenId: token.guest ? token.id : null };
}

export type AuthResult = { ok: true; token: AuthToken } | { ok: false; reason: "malformed" | "unknown" | "expired" | "revoked" };

interface CachedToken {
  token: AuthToken;
  expiresAt: Date | null;
  until: number;
}

const AUTH_CACHE_MAX = 10_000;

// One cache per process, not per module copy: Next bundles each route and each page's server
// actions separately, so a module-level Map in the account page's revoke action would not be the
// one /api/v1 reads, and a revoked token would keep working there until its entry timed out.
/** Successful lookups by token hash; failures are never cached, so a new token works at once. */
const authCache = processSingleton("auth-cache", () => new Map<string, CachedToken>());
const lastUsedWritten = processSingleton("token-last-used", () => new Map<string, number>());

/** Looks a presented bearer token up by its hash and records its use (to the minute). */
export async function authenticateToken(db: Database, presented: string, now = new Date()): Promise<AuthResult> {
  if (!TOKEN_PATTERN.test(presented)) return { ok: false, reason: "malformed" };
  const hash = hashToken(presented);
  const cached = authCache.get(hash);
  if (cached && cached.until > now.getTime()) {
    if (cached.expiresAt && cached.expiresAt <= now) return { ok: false, reason: "expired" };
    recordUse(db, cached.token.id, now);
    return { ok: true, token: cached.token };
  }
  const [row] = await db
    .select({
      id: apiTokens.id,
      userId: apiTokens.userId,
      name: apiTokens.name,
      scopes: apiTokens.scopes,
      purpose: apiTokens.purpose,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      guest: isGuestOwner,
      sessionVersion: apiTokens.sessionVersion,
      accountSessionVersion: users.sessionVersion,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, hash))
    .limit(1);
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revokedAt) return { ok: false, reason: "revoked" };
  // A session's token ends with its session: sign-out and a password change move the account on.
  if (row.sessionVersion !== null && row.sessionVersion !== row.accountSessionVersion) return { ok: false, reason: "revoked" };
  if (row.expiresAt && row.expiresAt <= now) return { ok: false, reason: "expired" };
  const token: AuthToken = { id: row.id, userId: row.userId, name: row.name, scopes: row.scopes, purpose: row.purpose, guest: row.guest };
  // Not a session's token: no other process would hear of the session ending within the cache's
  // time, and the session itself is checked against the database on every read too.
  if (env.AUTH_CACHE_TTL_MS > 0 && row.sessionVersion === null) {
    authCache.delete(hash);
    authCache.set(hash, { token, expiresAt: row.expiresAt, until: now.getTime() + env.AUTH_CACHE_TTL_MS });
    if (authCache.size > AUTH_CACHE_MAX) authCache.delete(authCache.keys().next().value!);
  }
  recordUse(db, row.id, now);
  return { ok: true, token };
}

function forgetToken(tokenId: string): void {
  for (const [hash, entry] of authCache) if (entry.token.id === tokenId) authCache.delete(hash);
}

// A write per request would double the cost of every read; one a minute per token is enough to audit use.
function recordUse(db: Database, tokenId: string, now: Date): void {
  const last = lastUsedWritten.get(tokenId) ?? 0;
  if (now.getTime() - last < LAST_USED_PRECISION_MS) return;
  lastUsedWritten.set(tokenId, now.getTime());
  db.update(apiTokens)
    .set({ lastUsedAt: now })
    .where(eq(apiTokens.id, tokenId))
    .catch((err: unknown) => log.warn({ err, tokenId }, "could not record token use"));
}

/** The user with this e-mail (case-insensitive), created when missing. */
export async function ensureUser(db: Database, email: string, name?: string): Promise<string> {
  const byEmail = sql`lower(${users.email}) = lower(${email})`;
  await db.insert(users).values({ email, name }).onConflictDoNothing();
  const [row] = await db.select({ id: users.id }).from(users).where(byEmail).limit(1);
  if (!row) throw new Error(`could not create user ${email}`);
  return row.id;
}

export interface CreatedToken {
  id: string;
  /** The only time the whole token exists outside its owner's hands. */
  token: string;
  prefix: string;
  name: string;
  scopes: ApiScope[];
  expiresAt: Date | null;
}

/**
 * Every token is made here, whoever asks (the account page, the CLI, the storefront): a scope only
 * partners may hold is refused to any other account. The refund itself asks again whether the
 * owner is a partner, so a partnership ended later stops the token's refunds too.
 */
export async function createApiToken(
  db: DbExecutor,
  input: {
    userId: string;
    name: string;
    scopes: ApiScope[];
    expiresAt?: Date | null;
    purpose?: "api" | "storefront";
    /** A storefront token's session (see apiTokens.sessionVersion). */
    sessionVersion?: number;
  },
): Promise<CreatedToken> {
  if (input.scopes.some((s) => PARTNER_ONLY_SCOPES.includes(s)) && !(await isPartner(db, input.userId)))
    throw new DomainError("partner_required", { what: "intents:refund" }, "scopes");
  const token = generateToken();
  const [row] = await db
    .insert(apiTokens)
    .values({
      userId: input.userId,
      name: input.name,
      prefix: token.slice(0, DISPLAY_PREFIX_LENGTH),
      tokenHash: hashToken(token),
      scopes: [...new Set(input.scopes)],
      expiresAt: input.expiresAt ?? null,
      purpose: input.purpose ?? "api",
      sessionVersion: input.sessionVersion ?? null,
    })
    .returning();
  if (!row) throw new Error("could not create the token");
  return { id: row.id, token, prefix: row.prefix, name: row.name, scopes: row.scopes, expiresAt: row.expiresAt };
}

export async function listApiTokens(db: Database, userId?: string) {
  return db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      prefix: apiTokens.prefix,
      scopes: apiTokens.scopes,
      createdAt: apiTokens.createdAt,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      lastUsedAt: apiTokens.lastUsedAt,
      owner: users.email,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.purpose, "api"), userId ? eq(apiTokens.userId, userId) : undefined))
    .orderBy(desc(apiTokens.createdAt));
}

/** Owns the intents guests make through the store's own pages. */
export const STOREFRONT_GUEST_EMAIL = "guests@storefront.giftkey.invalid";
const STOREFRONT_SCOPES: ApiScope[] = ["catalog:read", "gifts:verify", "gear:create", "intents:read"];

const isGuestOwner = sql<boolean>`lower(${users.email}) = ${STOREFRONT_GUEST_EMAIL}`;

// Per process and per database (tests open many), and a promise rather than an id: concurrent first
// issuances wait for one lookup instead of each running their own.
const guestOwners = processSingleton("guest-owners", () => new WeakMap<Database, Promise<string>>());

/**
 * The guest owner's id, looked up (and created, the first time ever) once per process. It must be
 * a system user without a password: one that someone signed up with would be handed every guest's
 * intents, so issuing a guest token then fails instead.
 */
function guestOwnerId(db: Database): Promise<string> {
  let owner = guestOwners.get(db);
  if (!owner) {
    owner = resolveGuestOwner(db);
    guestOwners.set(db, owner);
    // A failure is not remembered: the next issuance tries again.
    owner.catch(() => guestOwners.get(db) === owner && guestOwners.delete(db));
  }
  return owner;
}

async function resolveGuestOwner(db: Database): Promise<string> {
  await db.insert(users).values({ email: STOREFRONT_GUEST_EMAIL, name: "Storefront guests" }).onConflictDoNothing();
  const [row] = await db
    .select({ id: users.id, hasPassword: sql<boolean>`${users.passwordHash} IS NOT NULL` })
    .from(users)
    .where(isGuestOwner)
    .limit(1);
  if (!row) throw new Error(`could not create the storefront guest owner ${STOREFRONT_GUEST_EMAIL}`);
  if (row.hasPassword)
    throw new Error(
      `the storefront guest owner ${STOREFRONT_GUEST_EMAIL} has a password: it was signed up as an account and must not own guests' intents`,
    );
  return row.id;
}

/**
 * A short-lived token for one browser session of the store's own pages: the pages call the same
 * /api/v1 endpoints as partners do, with this instead of a long-lived secret. A signed-in shopper's
 * token belongs to them (their intents are theirs) and to their session: it carries the session's
 * version, so it ends when that session does (sign-out, a password change), at once. A guest's
 * belongs to the storefront's guest owner, and what it makes is visible to that token alone (`ownershipOf`).
 */
export async function issueStorefrontToken(
  db: Database,
  userId: string | null,
  /** The asking session's version (the JWT's); without it, the account's current one. */
  sessionVersion?: number,
): Promise<{ token: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + env.STOREFRONT_TOKEN_TTL_SECONDS * 1000);
  const create = (owner: string, sessionVersion?: number) =>
    createApiToken(db, {
      userId: owner,
      name: "storefront session",
      scopes: STOREFRONT_SCOPES,
      expiresAt,
      purpose: "storefront",
      sessionVersion,
    });
  if (userId) {
    // The session's own version, not the account's latest: a request that read its session just
    // before a sign-out gets a token that is already over, rather than one that outlives it.
    const version = sessionVersion ?? (await currentSessionVersion(db, userId));
    return { token: (await create(userId, version)).token, expiresAt };
  }
  try {
    return { token: (await create(await guestOwnerId(db))).token, expiresAt };
  } catch (err) {
    // The cached owner was deleted since (a foreign-key violation): look it up, or create it, afresh.
    if (sqlStateOf(err) !== SQLSTATE.foreignKeyViolation) throw err;
    guestOwners.delete(db);
    return { token: (await create(await guestOwnerId(db))).token, expiresAt };
  }
}

async function currentSessionVersion(db: Database, userId: string): Promise<number> {
  const [row] = await db.select({ version: users.sessionVersion }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.version ?? 0;
}

/** Revokes by id or by display prefix; returns how many tokens were revoked (0 or 1). */
export async function revokeApiToken(db: DbExecutor, idOrPrefix: string, userId?: string): Promise<number> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix);
  const match = isUuid ? or(eq(apiTokens.id, idOrPrefix), eq(apiTokens.prefix, idOrPrefix)) : eq(apiTokens.prefix, idOrPrefix);
  const candidates = await db
    .select({ id: apiTokens.id })
    .from(apiTokens)
    .where(and(match, isNull(apiTokens.revokedAt), userId ? eq(apiTokens.userId, userId) : undefined));
  if (candidates.length > 1) throw new Error(`"${idOrPrefix}" matches ${candidates.length} tokens; revoke by id`);
  const [target] = candidates;
  if (!target) return 0;
  await db.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, target.id));
  forgetToken(target.id);
  return 1;
}
