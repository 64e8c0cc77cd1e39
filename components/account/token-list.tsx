"use client";

import { useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { format } from "@/lib/i18n/format";
import { LocalTime } from "./local-time";
import { RevokeTokenButton } from "./revoke-token-button";
import type { RevokeTokenResult as RevokeResult } from "@/lib/schemas/tokens";

export interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  /** Decided by the server at render time, so server and browser agree. */
  status: "active" | "expired" | "revoked";
}

const statusClass: Record<TokenRow["status"], string> = {
  active: "border-emerald-400/60 bg-emerald-950/60 text-emerald-200",
  expired: "border-amber-400/60 bg-amber-950/60 text-amber-200",
  revoked: "border-slate-500 bg-slate-800 text-slate-300",
};

export function TokenList({ tokens, revokeAction }: { tokens: TokenRow[]; revokeAction: (id: string) => Promise<RevokeResult> }) {
  const { t } = useI18n();
  const m = t.account.tokens;
  const [announcement, setAnnouncement] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);

  function onRevoked(name: string) {
    setAnnouncement(format(m.revoked, { name }));
    // The button that had focus is gone with the row's active state; continue from the list.
    heading.current?.focus();
  }

  return (
    <div>
      <h3 id="token-list-title" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        {m.listTitle}
      </h3>
      <p role="status" className="mt-1 text-sm text-emerald-300">
        {announcement}
      </p>
      {tokens.length === 0 ? (
        <p className="mt-3 rounded-md border border-dashed border-slate-700 px-4 py-6 text-center text-sm text-slate-300">{m.empty}</p>
      ) : (
        <ul aria-labelledby="token-list-title" className="mt-3 space-y-3">
          {tokens.map((token) => (
            <li
              key={token.id}
              className={`rounded-lg border border-slate-800 p-4 ${token.status === "active" ? "bg-slate-900" : "bg-slate-900/40"}`}
            >
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0 flex-1">
                  <h4 className="flex flex-wrap items-center gap-2 font-semibold break-words">
                    <span className="min-w-0 [overflow-wrap:anywhere]">{token.name}</span>
                    <span className={`rounded-full border px-2 py-0.5 text-xs font-medium ${statusClass[token.status]}`}>
                      {m.status[token.status]}
                    </span>
                  </h4>
                  <p className="mt-1 text-sm text-slate-300">
                    {m.prefix}: <code className="font-mono text-slate-100">{token.prefix}…</code>
                  </p>
                </div>
                {token.status === "active" ? (
                  <div className="shrink-0">
                    <RevokeTokenButton tokenId={token.id} name={token.name} action={revokeAction} onRevoked={onRevoked} />
                  </div>
                ) : null}
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm">
                <div>
                  <dt className="text-slate-400">{m.scopes}</dt>
                  <dd className="mt-0.5 flex flex-wrap gap-1">
                    {token.scopes.map((scope) => (
                      <code key={scope} className="rounded bg-slate-800 px-1.5 py-0.5 font-mono text-xs text-sky-200">
                        {scope}
                      </code>
                    ))}
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-400">{m.created}</dt>
                  <dd className="mt-0.5">
                    <LocalTime value={token.createdAt} />
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-400">{m.lastUsed}</dt>
                  <dd className="mt-0.5">{token.lastUsedAt ? <LocalTime value={token.lastUsedAt} /> : m.neverUsed}</dd>
                </div>
                <div>
                  <dt className="text-slate-400">{token.revokedAt ? m.revokedAt : m.expires}</dt>
                  <dd className="mt-0.5">
                    {token.revokedAt ? (
                      <LocalTime value={token.revokedAt} />
                    ) : token.expiresAt ? (
                      <LocalTime value={token.expiresAt} />
                    ) : (
                      m.noExpiry
                    )}
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
