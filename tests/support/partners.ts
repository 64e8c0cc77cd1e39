import type { Database } from "@/lib/db/client";
import { API_SCOPES, type ApiScope } from "@/lib/schemas/tokens";
import { CLI_ACTOR } from "@/lib/services/audit";
import { makePartner, setPartnerHoldCap } from "@/lib/services/partners";
import { createApiToken, ensureUser, type AuthToken, type CreatedToken } from "@/lib/services/tokens";

/** An account made a partner (as `token:create --partner` would), with its own hold cap when given. */
export async function partnerAccount(db: Database, email: string, holdCap?: number): Promise<string> {
  await ensureUser(db, email);
  const { userId } = await makePartner(db, CLI_ACTOR, email);
  if (holdCap !== undefined) await setPartnerHoldCap(db, CLI_ACTOR, userId, holdCap);
  return userId;
}

/**
 * A token of a partner account (made one as `token:create --partner` would), every scope unless
 * told: what tests of partner integrations use. `holdCap` sets the partner's own cap on open holds,
 * for tests that reserve more than the default allows.
 */
export async function partnerToken(
  db: Database,
  email: string,
  options: { scopes?: ApiScope[]; holdCap?: number; name?: string } = {},
): Promise<CreatedToken & { userId: string; auth: AuthToken }> {
  const userId = await partnerAccount(db, email, options.holdCap);
  const created = await createApiToken(db, { userId, name: options.name ?? email, scopes: options.scopes ?? [...API_SCOPES] });
  return { ...created, userId, auth: { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false } };
}
