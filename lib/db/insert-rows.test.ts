import { describe, expect, it } from "vitest";
import { intents } from "./schema";
import { insertRows } from "./insert-rows";

describe("insertRows", () => {
  it("writes one tuple a row, DEFAULT where a row leaves a field out, and maps values as their columns do", () => {
    const common = { kind: "gift", tokenId: "t", appId: 620, email: "a@b.c", feeMode: "excluded" } as const;
    const amounts = { intentAmount: 100, discountAmount: 0, feeAmount: 5, paymentAmount: 105 };
    const { text, values } = insertRows(
      intents,
      [
        { ...common, ...amounts, id: "i1", attribution: { utm_source: "mail" } },
        { ...common, ...amounts, id: "i2", locale: "en", attribution: null },
      ],
      { expires_at: "now()" },
      ["id", "expires_at"],
    );
    expect(text).toBe(
      'INSERT INTO "intents" ("id", "kind", "token_id", "app_id", "email", "fee_mode", "intent_amount", "discount_amount", ' +
        '"fee_amount", "payment_amount", "attribution", "locale", "expires_at") VALUES ' +
        "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, DEFAULT, now()), " +
        '($12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, now()) RETURNING "id", "expires_at"',
    );
    expect(values).toEqual([
      ...["i1", "gift", "t", 620, "a@b.c", "excluded", 100, 0, 5, 105, '{"utm_source":"mail"}'],
      ...["i2", "gift", "t", 620, "a@b.c", "excluded", 100, 0, 5, 105, null, "en"],
    ]);
  });
});
