/** The frame of the sign-in and sign-up pages: one narrow card, readable at 390 px and at 1280 px. */
export function AuthCard({
  title,
  lead,
  children,
  footer,
}: {
  title: string;
  lead?: string;
  children: React.ReactNode;
  footer: React.ReactNode;
}) {
  return (
    <main id="main" className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <div className="rounded-lg border border-slate-800 bg-slate-900/60 p-5 shadow-lg shadow-black/20 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {lead ? <p className="mt-2 text-sm leading-relaxed text-slate-300">{lead}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
      <p className="mt-6 text-center text-sm text-slate-300">{footer}</p>
    </main>
  );
}
