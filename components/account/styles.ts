// Class names the account screens share. Colours keep WCAG AA contrast on the dark page
// (text at least 4.5:1, borders and focus rings at least 3:1).
export const inputClass =
  "block w-full rounded-md border border-slate-500 bg-slate-900 px-3 py-2 text-base text-slate-100 placeholder:text-slate-400 " +
  "focus:border-sky-400 focus:outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400 " +
  "aria-[invalid=true]:border-red-400";

export const labelClass = "block text-sm font-medium text-slate-200";
export const hintClass = "mt-1 text-sm text-slate-400";
export const fieldErrorClass = "mt-1 text-sm text-red-300";

const buttonBase =
  "inline-flex min-h-10 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-semibold transition-colors " +
  "disabled:cursor-not-allowed disabled:opacity-60";
export const primaryButtonClass = `${buttonBase} bg-sky-400 text-slate-950 hover:bg-sky-300`;
export const secondaryButtonClass = `${buttonBase} border border-slate-500 bg-slate-900 text-slate-100 hover:bg-slate-800`;
export const dangerButtonClass = `${buttonBase} bg-red-600 text-white hover:bg-red-700`;
export const linkClass = "text-sky-300 underline underline-offset-2 hover:text-sky-200";
export const cardClass = "rounded-lg border border-slate-800 bg-slate-900/60 p-4 sm:p-6";
