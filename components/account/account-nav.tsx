"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { Messages } from "@/lib/i18n/messages";
import { SignOutButton } from "./sign-out-button";

/**
 * The header's account corner: "Sign in" (back to this page afterwards) for a guest; the account
 * link with the e-mail (from 640 px up) and "Sign out" for a signed-in shopper.
 * The layout passes `user` from getSessionUser(), and the texts (the root layout hands no `account` texts to every page). Neither link prefetches: on every page's load that
 * would be a server render competing with the page's own start-up on a phone, as with NavLink.
 */
export function AccountNav({ user, labels }: { user: { email: string } | null; labels: Messages["account"]["nav"] }) {
  const pathname = usePathname();
  const linkClass = "rounded px-1 text-sm text-slate-300 hover:text-white";
  if (!user) {
    const back = pathname === "/sign-in" || pathname === "/sign-up" ? "/account" : pathname;
    return (
      <Link prefetch={false} href={`/sign-in?callbackUrl=${encodeURIComponent(back)}`} className={linkClass}>
        {labels.signIn}
      </Link>
    );
  }
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Link
        prefetch={false}
        href="/account"
        aria-current={pathname === "/account" ? "page" : undefined}
        className={`${linkClass} flex min-w-0 items-baseline gap-1`}
      >
        {labels.account}
        <span className="hidden max-w-56 truncate text-slate-400 sm:inline">({user.email})</span>
      </Link>
      <SignOutButton
        labels={labels}
        className="rounded px-1 text-sm text-slate-300 underline-offset-2 hover:text-white hover:underline disabled:opacity-60"
      />
    </div>
  );
}
