import "server-only";
import { Body, Button, Column, Container, Head, Heading, Hr, Html, Link, Preview, Row, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";
import type { Locale } from "@/lib/i18n/config";
import { intlLocale } from "@/lib/i18n/config";
import { format, formatStoreTime } from "@/lib/i18n/format";
import { mail } from "@/lib/i18n/messages/mail";
import { regionName } from "@/lib/i18n/regions";
import type { MailKind } from "@/lib/mail/kinds";
import { formatRub, type FeeMode } from "@/lib/money";

/** Everything a message about an intent says, fixed when it is enqueued. */
export interface IntentMailData {
  kind: MailKind;
  locale: Locale;
  intentId: string;
  email: string;
  /** The game's title in the message's language. */
  gameTitle: string;
  item: { kind: "gift"; edition: string | null; region: string; inviteUrl: string } | { kind: "gear"; title: string; account: string };
  amounts: { price: number; discount: number; promoCode: string | null; fee: number; feeMode: FeeMode; total: number };
  paidAt: Date | null;
  /** The signed order link (lib/orders/link.ts). */
  orderUrl: string;
}

/** What the subject and preview name: the game for a gift, the item for gear. */
export function mailTitle(data: IntentMailData): string {
  return data.item.kind === "gift" ? data.gameTitle : data.item.title;
}

const colors = { text: "#0f172a", muted: "#475569", line: "#e2e8f0", accent: "#4f46e5" };

/** One message about an intent: heading, what and for whom, the amounts, the order link. */
export function IntentMail({ data }: { data: IntentMailData }) {
  const t = mail[data.locale];
  const k = t.kinds[data.kind];
  const rub = (kopecks: number) => formatRub(kopecks, intlLocale(data.locale));
  const values = {
    amount: rub(data.amounts.total),
    title: mailTitle(data),
    time: data.paidAt ? formatStoreTime(data.paidAt, data.locale) : "",
  };
  const refund = data.kind === "refunded" || data.kind === "delivery_failed_refunded";
  // `included` carves the fee out of the price; the others add it on top.
  const feeOnTop = data.amounts.feeMode !== "included" && data.amounts.fee > 0;
  return (
    <Html lang={data.locale}>
      <Head />
      <Preview>{format(k.preview, values)}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", color: colors.text, fontFamily: "Arial, Helvetica, sans-serif", margin: 0 }}>
        <Container style={{ maxWidth: "560px", margin: "0 auto", padding: "24px", backgroundColor: "#ffffff" }}>
          <Text style={{ fontSize: "14px", fontWeight: 700, color: colors.accent, margin: 0 }}>{t.brand}</Text>
          <Heading as="h1" style={{ fontSize: "22px", margin: "12px 0 8px" }}>
            {k.heading}
          </Heading>
          <Text style={{ fontSize: "15px", lineHeight: "22px", margin: "0 0 4px" }}>{format(k.intro, values)}</Text>
          <Text style={{ fontSize: "13px", color: colors.muted, margin: 0 }}>{format(t.order.number, { id: data.intentId })}</Text>

          <Section style={{ marginTop: "20px" }}>
            <Heading as="h2" style={h2}>
              {t.order.what}
            </Heading>
            {data.item.kind === "gift" ? (
              <>
                <Line>{format(t.order.gift, { title: data.gameTitle })}</Line>
                {data.item.edition ? <Line>{format(t.order.edition, { edition: data.item.edition })}</Line> : null}
              </>
            ) : (
              <Line>{format(t.order.gear, { item: data.item.title, game: data.gameTitle })}</Line>
            )}
            <Heading as="h2" style={h2}>
              {t.order.forWhom}
            </Heading>
            {data.item.kind === "gift" ? (
              <>
                <Line>{format(t.order.invite, { url: data.item.inviteUrl })}</Line>
                <Line>{format(t.order.region, { region: regionName(data.item.region, data.locale) })}</Line>
              </>
            ) : (
              <Line>{format(t.order.account, { account: data.item.account })}</Line>
            )}
          </Section>

          <Section style={{ marginTop: "20px" }}>
            <Heading as="h2" style={h2}>
              {t.amounts.heading}
            </Heading>
            <Amount label={t.amounts.price} value={rub(data.amounts.price)} />
            {data.amounts.discount > 0 ? (
              <Amount label={format(t.amounts.discount, { code: data.amounts.promoCode ?? "" })} value={`−${rub(data.amounts.discount)}`} />
            ) : null}
            {feeOnTop ? <Amount label={t.amounts.fee} value={rub(data.amounts.fee)} /> : null}
            <Hr style={{ borderColor: colors.line, margin: "8px 0" }} />
            <Amount label={t.amounts.total} value={rub(data.amounts.total)} strong />
            {!feeOnTop && data.amounts.fee > 0 ? <Amount label={t.amounts.feeIncluded} value={rub(data.amounts.fee)} muted /> : null}
            {refund ? <Amount label={t.amounts.refunded} value={rub(data.amounts.total)} strong /> : null}
          </Section>

          <Section style={{ marginTop: "24px" }}>
            {/* The text part gives the link once, with the hint below. */}
            <Button
              data-skip-in-text="true"
              href={data.orderUrl}
              style={{ backgroundColor: colors.accent, color: "#ffffff", borderRadius: "6px", padding: "12px 20px", fontWeight: 700 }}
            >
              {t.link.button}
            </Button>
            <Text style={{ fontSize: "13px", color: colors.muted, margin: "12px 0 0" }}>
              {t.link.hint} <Link href={data.orderUrl}>{data.orderUrl}</Link>
            </Text>
          </Section>

          <Hr style={{ borderColor: colors.line, margin: "24px 0 12px" }} />
          <Text style={{ fontSize: "12px", color: colors.muted, margin: 0 }}>{format(t.footer, { email: data.email })}</Text>
        </Container>
      </Body>
    </Html>
  );
}

const h2 = { fontSize: "13px", textTransform: "uppercase" as const, letterSpacing: "0.05em", color: colors.muted, margin: "16px 0 4px" };

function Line({ children }: { children: ReactNode }) {
  return <Text style={{ fontSize: "15px", lineHeight: "22px", margin: 0, wordBreak: "break-word" }}>{children}</Text>;
}

function Amount({ label, value, strong, muted }: { label: string; value: string; strong?: boolean; muted?: boolean }) {
  const style = {
    fontSize: strong ? "16px" : muted ? "13px" : "15px",
    fontWeight: strong ? 700 : 400,
    color: muted ? colors.muted : colors.text,
    margin: "2px 0",
  };
  return (
    // Label and amount side by side in the text part too.
    <Row data-text-format="dataTable">
      <Column>
        <Text style={style}>{label}</Text>
      </Column>
      <Column align="right">
        <Text style={{ ...style, whiteSpace: "nowrap" }}>{value}</Text>
      </Column>
    </Row>
  );
}
