import "server-only";
import { headers } from "next/headers";
import { originFromHeaders } from "@/lib/http/public-origin";

/** This request's public origin, for absolute URLs a page renders (Open Graph, covers). */
export async function siteOrigin(): Promise<string> {
  return originFromHeaders(await headers());
}
