"use server";

import { revalidatePath } from "next/cache";
import { adminAction } from "@/lib/admin/action";
import { getDb } from "@/lib/db/client";
import { gameRegionsSchema, gameVisibilitySchema } from "@/lib/schemas/admin-catalog";
import { setGameHidden, setGameRegions } from "@/lib/services/admin-catalog";

export const setGameHiddenAction = adminAction("catalog:write", gameVisibilitySchema, async ({ appId, hidden }, staff) => {
  await setGameHidden(getDb(), staff.actor, appId, hidden);
  revalidatePath("/admin/catalog");
  return {};
});

export const setGameRegionsAction = adminAction("catalog:write", gameRegionsSchema, async ({ appId, regions }, staff) => {
  await setGameRegions(getDb(), staff.actor, appId, regions);
  revalidatePath(`/admin/catalog/${appId}`);
  return { regions };
});
