"use server";

import { revalidatePath } from "next/cache";
import { adminAction } from "@/lib/admin/action";
import { getDb } from "@/lib/db/client";
import { partnerHoldCapSchema, partnerMakeSchema, partnerRemoveSchema, partnerTokenRevokeSchema } from "@/lib/schemas/admin-partners";
import { makePartner, removePartner, revokePartnerToken, setPartnerHoldCap } from "@/lib/services/partners";

// The partners page's actions (/admin/partners); each checks its permission on the server and is
// audited by its service in the change's transaction.

export const revokePartnerTokenAction = adminAction("partners:write", partnerTokenRevokeSchema, async ({ tokenId }, staff) => {
  const result = await revokePartnerToken(getDb(), staff.actor, tokenId);
  revalidatePath("/admin/partners");
  return result;
});

export const makePartnerAction = adminAction("partners:write", partnerMakeSchema, async ({ email }, staff) => {
  const result = await makePartner(getDb(), staff.actor, email);
  revalidatePath("/admin/partners");
  return result;
});

export const removePartnerAction = adminAction("partners:write", partnerRemoveSchema, async ({ userId }, staff) => {
  const result = await removePartner(getDb(), staff.actor, userId);
  revalidatePath("/admin/partners");
  return result;
});

export const setPartnerHoldCapAction = adminAction("partners:write", partnerHoldCapSchema, async ({ userId, holdCap }, staff) => {
  const result = await setPartnerHoldCap(getDb(), staff.actor, userId, holdCap);
  revalidatePath("/admin/partners");
  return result;
});
