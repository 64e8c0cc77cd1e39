"use server";

import { revalidatePath } from "next/cache";
import { adminAction } from "@/lib/admin/action";
import { getDb } from "@/lib/db/client";
import { gearItemCreateSchema, gearStockAdjustSchema } from "@/lib/schemas/admin-catalog";
import { adjustGearStock, createGearItem } from "@/lib/services/admin-gear";

export const adjustGearStockAction = adminAction("stock:write", gearStockAdjustSchema, async (input, staff) => {
  const result = await adjustGearStock(getDb(), staff.actor, input);
  revalidatePath("/admin/gear");
  return result;
});

export const createGearItemAction = adminAction("stock:write", gearItemCreateSchema, async (input, staff) => {
  const result = await createGearItem(getDb(), staff.actor, input);
  revalidatePath("/admin/gear");
  return result;
});
