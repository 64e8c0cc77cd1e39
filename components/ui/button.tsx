const VARIANTS = {
  primary: "bg-sky-500 text-slate-950 hover:bg-sky-400",
  secondary: "border border-slate-600 text-slate-100 hover:border-slate-400 hover:bg-slate-800",
} as const;

/** Classes for a button or a link that looks like one; links stay links (they navigate), buttons act. */
export function buttonClass(variant: keyof typeof VARIANTS = "primary", extra = ""): string {
  // A thick white ring: the global sky ring barely shows against a sky button.
  return `inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-semibold transition-colors focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-white ${VARIANTS[variant]} ${extra}`;
}

export function Button({
  variant = "primary",
  className = "",
  type = "button",
  ...props
}: React.ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof VARIANTS }) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}
