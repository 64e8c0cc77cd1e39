"use client";

import { usePathname } from "next/navigation";
import { useState } from "react";
import type { Messages } from "@/lib/i18n/messages";
import { useHydrated } from "@/components/ui/use-hydrated";

export function SignOutButton({ labels, className }: { labels: Messages["account"]["nav"]; className?: string }) {
  const pathname = usePathname();
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();

  async function signOut() {
    setPending(true);
    // The header carries this button on every page; the sign-in client loads only when it is used.
    const signedOut = await import("@/lib/queries/auth-client").then(
      (client) => client.signOutSession(),
      () => false,
    );
    if (!signedOut) {
      setPending(false);
      return;
    }
    // A full load, so nothing rendered for the signed-in shopper survives; the account page has
    // nothing to show a guest, so leave it for the home page.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load on purpose
    if (pathname.startsWith("/account")) window.location.assign("/");
    else window.location.reload();
  }

  return (
    <button type="button" onClick={signOut} disabled={!hydrated || pending} aria-busy={pending || undefined} className={className}>
      {pending ? labels.signingOut : labels.signOut}
    </button>
  );
}
