import { describe, expect, it } from "vitest";
import { messages } from "@/lib/i18n/messages";
import { AUDIT_ACTIONS, AUDIT_FIELDS, AUDIT_TARGET_TYPES } from "./audit-catalog";
import { auditActionName, auditChanges, auditNoteText, auditTargetName } from "./audit-text";

// The audit log in the back office's two languages: every action, target type and field the
// services may record (recordAudit accepts nothing else) has a name in each, and the page shows
// names and worded values, never the stored codes.

describe.each(["ru", "en"] as const)("the audit log's names in %s", (locale) => {
  const t = messages[locale];
  const names = t.admin.audit;

  it.each([
    ["actions", AUDIT_ACTIONS, names.actions],
    ["target types", AUDIT_TARGET_TYPES, names.targets],
    ["fields", AUDIT_FIELDS, names.fields],
  ] as const)("cover every one of the catalogue's %s", (_what, codes, texts) => {
    expect(Object.keys(texts).sort()).toEqual([...codes].sort());
    for (const code of codes) {
      const text = (texts as Record<string, string>)[code]!;
      expect(text.trim(), code).not.toBe("");
      if (code !== "email") expect(text, code).not.toBe(code);
      if (locale === "ru" && code !== "email") expect(text, code).toMatch(/[а-яё]/i);
    }
  });

  it("word an entry's action, target and changed values", () => {
    expect(auditActionName("promo_code.update", t)).toBe(names.actions["promo_code.update"]);
    expect(auditTargetName("promo_code", t)).toBe(names.targets.promo_code);
    const refund = {
      action: "order.refund",
      targetType: "intent",
      before: { status: "paid", paymentAmount: 41895 },
      after: { status: "refunded", refundReason: "operator", providerRefundId: "sbx_r_1" },
      note: "Покупатель передумал",
    };
    const changes = auditChanges(refund, t, locale);
    expect(changes.map((c) => c.field)).toEqual([
      names.fields.status,
      names.fields.paymentAmount,
      names.fields.refundReason,
      names.fields.providerRefundId,
    ]);
    expect(changes[0]).toMatchObject({ before: t.adminOrders.states.paid, after: t.adminOrders.states.refunded });
    expect(changes[1]!.before).toMatch(/418,95|418\.95/);
    expect(changes[2]!.after).toBe(t.adminOrders.order.refundReasons.operator);
    expect(auditNoteText(refund, t)).toBe("Покупатель передумал");
  });

  it("word the codes inside values: promo kinds and amounts, steps, roles, booleans, instants", () => {
    const promo = auditChanges(
      {
        action: "promo_code.update",
        targetType: "promo_code",
        before: { kind: "percent", value: 25, appliesTo: "all", disabledAt: null },
        after: { kind: "fixed", value: 15050, appliesTo: "gifts", disabledAt: "2026-03-01T09:00:00.000Z" },
        note: null,
      },
      t,
      locale,
    );
    const byKey = Object.fromEntries(promo.map((c) => [c.key, c]));
    expect(byKey.kind).toMatchObject({ before: t.adminCatalog.promo.kinds.percent, after: t.adminCatalog.promo.kinds.fixed });
    expect(byKey.value!.before).toBe("25 %");
    expect(byKey.value!.after).toMatch(/150[,.]50/);
    expect(byKey.appliesTo).toMatchObject({ before: t.adminCatalog.promo.targets.all, after: t.adminCatalog.promo.targets.gifts });
    expect(byKey.disabledAt!.after).toMatch(/2026|26/);

    const report = {
      action: "delivery.report",
      targetType: "intent",
      before: { deliveryId: "d", status: "pending", step: "taken" },
      after: { deliveryId: "d", status: "pending", step: "friend_request_sent" },
      note: "friend_request_sent",
    };
    expect(auditChanges(report, t, locale)).toEqual([
      {
        key: "step",
        field: names.fields.step,
        before: t.adminPartners.actions.steps.taken,
        after: t.adminPartners.actions.steps.friend_request_sent,
      },
    ]);
    expect(auditNoteText(report, t)).toBe(t.adminPartners.actions.steps.friend_request_sent);
    expect(auditNoteText({ ...report, note: "gift_declined" }, t)).toBe(t.orders.failures.gift_declined);

    const grant = auditChanges(
      {
        action: "staff.grant",
        targetType: "user",
        before: null,
        after: { email: "a@example.com", role: "support", accountCreated: true },
        note: null,
      },
      t,
      locale,
    );
    expect(grant.map((c) => c.after)).toEqual(["a@example.com", t.admin.roles.support, t.adminOrders.order.yes]);
  });
});
