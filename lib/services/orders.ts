import "server-only";
import type { DbExecutor } from "@/lib/db/client";
import { verifyOrderLinkToken } from "@/lib/orders/link";
import type { TimelineEntry } from "@/lib/schemas/intents";
import { findIntentView, loadTimeline, timelineOf, type IntentView } from "./intent-lifecycle";

export interface OrderViewer {
  /** The `t` of a signed order link (lib/orders/link.ts), as the visitor brought it. */
  linkToken?: string | null;
  /** The signed-in shopper, if any. */
  userId?: string | null;
}

export interface Order {
  view: IntentView;
  timeline: TimelineEntry[];
  /** Whether the visitor came with a valid signed link (so the page's own requests carry it on). */
  bySignedLink: boolean;
}

/**
 * An order for its page: whoever holds its signed link, or the owner of the token that created it
 * (the account's order list shows the same intents). Anyone else gets null, exactly as for an id
 * that does not exist, so the page never tells which ids are real.
 */
export async function findOrderForViewer(db: DbExecutor, intentId: string, viewer: OrderViewer): Promise<Order | null> {
  const bySignedLink = verifyOrderLinkToken(intentId, viewer.linkToken);
  // Neither proof: nothing to look up, and no timing difference between real and unknown ids.
  if (!bySignedLink && !viewer.userId) return null;
  const view = await findIntentView(db, intentId);
  if (!view) return null;
  if (!bySignedLink && view.ownerId !== viewer.userId) return null;
  return { view, timeline: timelineOf(view, await loadTimeline(db, view.id)), bySignedLink };
}
