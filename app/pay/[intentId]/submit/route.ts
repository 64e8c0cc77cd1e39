// POST /pay/{intentId}/submit - the payment page's Pay or Decline button; a 303 to where the buyer goes next
import { publicOrigin } from "@/lib/http/public-origin";
import { withRequestContext } from "@/lib/api/request-context";
import { getDb } from "@/lib/db/client";
import { PAYMENT_CHOICES, submitPaymentChoice, type PaymentChoice } from "@/lib/services/payments";

const MAX_FORM_BYTES = 4096;

const plain = (status: number, text: string) => new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export const POST = withRequestContext(async (request: Request, { params }: { params: Promise<{ intentId: string }> }) => {
  const { intentId } = await params;
  const choice = await readChoice(request);
  if (!choice) return plain(400, `choice must be one of: ${PAYMENT_CHOICES.join(", ")}`);
  const submitted = await submitPaymentChoice(getDb(), intentId, choice, publicOrigin(request));
  if (!submitted.found) return plain(404, "no such payment");
  // 303: the browser follows with a GET, so a reload of the next page never posts the form again.
  return new Response(null, { status: 303, headers: { Location: submitted.location, "Cache-Control": "no-store" } });
});

async function readChoice(request: Request): Promise<PaymentChoice | null> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return null;
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) return null;
  const text = await request.text();
  if (text.length > MAX_FORM_BYTES) return null;
  const choice = new URLSearchParams(text).get("choice");
  return (PAYMENT_CHOICES as readonly string[]).includes(choice ?? "") ? (choice as PaymentChoice) : null;
}
