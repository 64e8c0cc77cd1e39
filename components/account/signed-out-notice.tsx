"use client";

import Link from "next/link";
import { useI18n } from "@/components/i18n/i18n-provider";

/** What an account form says when its action answers `not_signed_in`: the reason, and the way back in. */
export function SignedOutNotice() {
  const { t } = useI18n();
  return (
    <>
      {t.errors.reasons.not_signed_in}{" "}
      <Link href="/sign-in?callbackUrl=%2Faccount" className="underline">
        {t.account.nav.signIn}
      </Link>
    </>
  );
}
