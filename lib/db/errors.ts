/**
 * PostgreSQL's SQLSTATE of a failed query: pg puts it on the error, drizzle wraps that error as
 * `cause`. Undefined for anything that is not a database error.
 */
export function sqlStateOf(err: unknown): string | undefined {
  if (err === null || typeof err !== "object") return undefined;
  const cause = (err as { cause?: unknown }).cause;
  const source = cause !== null && typeof cause === "object" && "code" in cause ? cause : err;
  const code = (source as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** SQLSTATEs the app branches on: PostgreSQL's own, and those its triggers raise (drizzle/0002, 0003). */
export const SQLSTATE = {
  uniqueViolation: "23505",
  foreignKeyViolation: "23503",
  undefinedTable: "42P01",
  invalidSchemaName: "3F000",
  /** intents_hold_gear_stock: no unit of the item is left. */
  outOfStock: "GK409",
  /** The transition trigger: paying after expires_at. */
  intentExpired: "GKEXP",
  /** The transition trigger: any move the state table does not allow. */
  illegalMove: "GKSTA",
  /** claim_hold_slots (drizzle/0026): a cap on open holds is reached (DETAIL scope:max). */
  holdLimit: "GKHLD",
  /** claim_hold_slots: the session or account already holds this promo code open (DETAIL scope:code). */
  promoCodeHeld: "GKHCD",
} as const;
