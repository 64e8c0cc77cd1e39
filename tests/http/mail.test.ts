import { describe, expect, inject, it } from "vitest";
import { until } from "@/tests/support/paid-intent";
import { api, appQuery } from "./support";

const base = () => inject("appBaseUrl");

async function page(path: string, forwardedFor?: string) {
  const res = await fetch(`${base()}${path}`, { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });
  return { status: res.status, html: await res.text() };
}

// The built server runs without SMTP_URL, as a fresh `npm start` does: the receipt is rendered by
// the payment's route handler inside Next, kept by the worker, and read at /dev/mail.
describe("the receipt of a payment, kept without an SMTP server", () => {
  it("is written when the payment page's form pays, in the request's locale, and readable at /dev/mail from this machine only", async () => {
    const created = await api("/api/v1/gifts/verify", {
      body: {
        item: "620",
        target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
        email: "receipt-http@example.com",
        fee: "excluded",
        locale: "en",
      },
    });
    expect(created.status).toBe(201);
    const intentId: string = created.body.intentId;
    const paid = await fetch(`${base()}/pay/${intentId}/submit`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "choice=pay",
      redirect: "manual",
    });
    expect(paid.status).toBe(303);

    const [row] = await until(async () => {
      const rows = await appQuery<{ id: string; status: string; subject: string; locale: string }>(
        "SELECT id, status, subject, locale FROM mail_messages WHERE intent_id = $1",
        [intentId],
      );
      return rows[0]?.status === "stored" && rows;
    });
    expect(row).toMatchObject({ locale: "en", subject: "Receipt: Portal 2 — ₽418.95" });

    const list = await page("/dev/mail");
    expect(list.status).toBe(200);
    expect(list.html).toContain(`href="/dev/mail/${row!.id}"`);
    const one = await page(`/dev/mail/${row!.id}`);
    expect(one.status).toBe(200);
    expect(one.html).toMatch(/<iframe[^>]*sandbox="allow-popups allow-popups-to-escape-sandbox"[^>]*srcDoc="/i);
    expect(one.html).toContain("Thank you for your purchase!");
    expect(one.html).toContain(`/orders/${intentId}?t=`);

    // Anyone else (here, a client the trusted proxy names) gets the ordinary 404.
    for (const path of ["/dev/mail", `/dev/mail/${row!.id}`]) expect((await page(path, "203.0.113.7")).status).toBe(404);
    expect((await page("/dev/mail/not-an-id")).status).toBe(404);
  });
});
