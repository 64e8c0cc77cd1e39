"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** A header link that marks itself as the current page (the catalog also owns the game pages). */
export function NavLink({ href, children }: { href: string; children: React.ReactNode }) {
  const pathname = usePathname();
  const current = pathname === href;
  const within = current || (href === "/" ? pathname.startsWith("/games/") : pathname.startsWith(`${href}/`));
  return (
    <Link
      href={href}
      // Prefetching every section on arrival competes with the page's own start-up on a phone;
      // a section is one click away and renders in tens of milliseconds.
      prefetch={false}
      aria-current={current ? "page" : undefined}
      className={`inline-flex min-h-10 items-center rounded-md px-3 text-sm font-medium transition-colors ${
        within ? "bg-slate-800 text-white" : "text-slate-300 hover:bg-slate-800/60 hover:text-white"
      }`}
    >
      {children}
    </Link>
  );
}
