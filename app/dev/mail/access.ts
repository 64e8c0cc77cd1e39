import "server-only";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { env } from "@/lib/env";
import { isLoopbackClient } from "@/lib/http/client-ip";
import { mailIsKept } from "@/lib/mail/config";

/**
 * Kept mail holds shoppers' addresses and order links: only a developer at this machine may read
 * it, and only while there is no SMTP server (with one, the mail is in the shoppers' inboxes).
 * Anyone else gets the ordinary 404, so the page does not announce itself.
 */
export async function requireDevMailAccess(): Promise<void> {
  const forwardedFor = (await headers()).get("x-forwarded-for");
  if (!mailIsKept() || !isLoopbackClient(forwardedFor, env.TRUST_PROXY)) notFound();
}
