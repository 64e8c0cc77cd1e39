"use server";

import { revalidatePath } from "next/cache";
import { adminAction } from "@/lib/admin/action";
import { getDb } from "@/lib/db/client";
import { partnerTokenRevokeSchema } from "@/lib/schemas/admin-partners";
import { revokePartnerToken } from "@/lib/services/partners";

export const revokePartnerTokenAction = adminAction("partners:write", partnerTokenRevokeSchema, async ({ tokenId }, staff) => {
  const result = await revokePartnerToken(getDb(), staff.actor, tokenId);
  revalidatePath("/admin/partners");
  return result;
});
