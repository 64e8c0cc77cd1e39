"use server";

import { revalidatePath } from "next/cache";
import { adminAction } from "@/lib/admin/action";
import { getDb } from "@/lib/db/client";
import { promoCodeCreateSchema, promoCodeIdSchema, promoCodeUpdateSchema } from "@/lib/schemas/admin-catalog";
import { createPromoCode, setPromoCodeDisabled, updatePromoCode } from "@/lib/services/admin-promo-codes";

export const createPromoCodeAction = adminAction("promo:write", promoCodeCreateSchema, async (input, staff) => {
  const row = await createPromoCode(getDb(), staff.actor, input);
  revalidatePath("/admin/promo-codes");
  return { id: row.id, code: row.code };
});

export const updatePromoCodeAction = adminAction("promo:write", promoCodeUpdateSchema, async (input, staff) => {
  const row = await updatePromoCode(getDb(), staff.actor, input);
  revalidatePath("/admin/promo-codes");
  return { id: row.id, code: row.code };
});

export const disablePromoCodeAction = adminAction("promo:write", promoCodeIdSchema, async ({ id }, staff) => {
  await setPromoCodeDisabled(getDb(), staff.actor, id, true);
  revalidatePath("/admin/promo-codes");
  return {};
});

export const enablePromoCodeAction = adminAction("promo:write", promoCodeIdSchema, async ({ id }, staff) => {
  await setPromoCodeDisabled(getDb(), staff.actor, id, false);
  revalidatePath("/admin/promo-codes");
  return {};
});
