import { fieldErrorClass, hintClass, labelClass } from "./styles";

/** The ids an input names in `aria-describedby`: its hint and its error, when shown. */
export function describedBy(id: string, parts: { hint?: unknown; error?: unknown }): string | undefined {
  const ids = [parts.error ? `${id}-error` : null, parts.hint ? `${id}-hint` : null].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

/** Label, control, hint and error of one form field; the control sets `aria-describedby` with describedBy(). */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: React.ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <div className="mt-1">{children}</div>
      {error ? (
        <p id={`${id}-error`} className={fieldErrorClass}>
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className={hintClass}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
