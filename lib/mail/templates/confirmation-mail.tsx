import "server-only";
import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { Locale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { mail } from "@/lib/i18n/messages/mail";

export interface ConfirmationMailData {
  locale: Locale;
  email: string;
  /** The link with its proof still a placeholder (lib/auth/confirmation-link.ts). */
  url: string;
  hours: number;
}

const colors = { text: "#0f172a", muted: "#475569", line: "#e2e8f0", accent: "#4f46e5" };

/** The e-mail confirmation: who it is for, the button and the link, how long it works, and what to do if unasked. */
export function ConfirmationMail({ data }: { data: ConfirmationMailData }) {
  const t = mail[data.locale];
  const c = t.confirmation;
  return (
    <Html lang={data.locale}>
      <Head />
      <Preview>{format(c.preview, { email: data.email })}</Preview>
      <Body style={{ backgroundColor: "#f8fafc", color: colors.text, fontFamily: "Arial, Helvetica, sans-serif", margin: 0 }}>
        <Container style={{ maxWidth: "560px", margin: "0 auto", padding: "24px", backgroundColor: "#ffffff" }}>
          <Text style={{ fontSize: "14px", fontWeight: 700, color: colors.accent, margin: 0 }}>{t.brand}</Text>
          <Heading as="h1" style={{ fontSize: "22px", margin: "12px 0 8px" }}>
            {c.heading}
          </Heading>
          <Text style={{ fontSize: "15px", lineHeight: "22px", margin: 0 }}>{format(c.intro, { email: data.email })}</Text>
          <Section style={{ marginTop: "24px" }}>
            {/* The text part gives the link once, with the hint below. */}
            <Button
              data-skip-in-text="true"
              href={data.url}
              style={{ backgroundColor: colors.accent, color: "#ffffff", borderRadius: "6px", padding: "12px 20px", fontWeight: 700 }}
            >
              {c.button}
            </Button>
            <Text style={{ fontSize: "13px", color: colors.muted, margin: "12px 0 0", wordBreak: "break-all" }}>
              {c.hint} <Link href={data.url}>{data.url}</Link>
            </Text>
            <Text style={{ fontSize: "13px", color: colors.muted, margin: "12px 0 0" }}>{format(c.expires, { hours: data.hours })}</Text>
          </Section>
          <Text style={{ fontSize: "13px", color: colors.muted, margin: "16px 0 0" }}>{c.notYou}</Text>
          <Hr style={{ borderColor: colors.line, margin: "24px 0 12px" }} />
          <Text style={{ fontSize: "12px", color: colors.muted, margin: 0 }}>{format(c.footer, { email: data.email })}</Text>
        </Container>
      </Body>
    </Html>
  );
}
