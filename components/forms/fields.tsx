"use client";

import { useId, useRef, type ReactNode, type Ref } from "react";

// Form controls for the checkout forms: a visible label, a hint read before typing, and an error
// beside the control that assistive technology announces with it (aria-describedby, aria-invalid).

const controlClass =
  "block w-full rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-base text-slate-100 placeholder:text-slate-500 " +
  "hover:border-slate-500 aria-invalid:border-red-400 aria-invalid:bg-red-950/30";

/**
 * A ref callback for a control that adopts what the shopper typed or picked in the server-rendered
 * element before the page's scripts ran (a slow phone): it is still in the element when React
 * attaches, but not in React's state, and the next render would wipe it. `outer` gets the element too.
 */
function useAdoptingRef<T extends HTMLElement>(
  read: (element: T) => string | null,
  value: string,
  onChange: (value: string) => void,
  outer?: (element: T | null) => void,
): (element: T | null) => void {
  const attached = useRef(false);
  return (element: T | null) => {
    outer?.(element);
    if (!element || attached.current) return;
    attached.current = true;
    const typed = read(element);
    if (typed !== null && typed !== value) onChange(typed);
  };
}

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const list = ids.filter(Boolean).join(" ");
  return list || undefined;
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1.5 flex gap-1.5 text-sm text-red-300">
      <span aria-hidden="true">⚠</span>
      <span>{message}</span>
    </p>
  );
}

interface TextFieldProps {
  label: string;
  hint?: ReactNode;
  error?: string;
  /** Shown after the label, e.g. "optional". */
  note?: string;
  value: string;
  onChange: (value: string) => void;
  inputRef?: (element: HTMLInputElement | null) => void;
  name: string;
  type?: "text" | "email" | "url" | "search";
  inputMode?: "text" | "email" | "url" | "numeric";
  autoComplete?: string;
  placeholder?: string;
  spellCheck?: boolean;
  maxLength?: number;
  /** A button beside the control that acts on its value ("Apply"). */
  action?: ReactNode;
}

/** What a labelled control carries so its label, hint and error belong to it. */
interface ControlProps {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/** A control's label (with an optional note), its hint before it and its error after it. */
function Labelled({
  label,
  note,
  hint,
  error,
  liveError,
  children,
}: {
  label: string;
  note?: string;
  hint?: ReactNode;
  error?: string;
  /** Announce the error when it appears while the control has the focus (a choice judged as it is made). */
  liveError?: boolean;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-slate-100">
        {label}
        {note && <span className="ml-1.5 text-sm font-normal text-slate-400">({note})</span>}
      </label>
      {hint && (
        <p id={hintId} className="mt-0.5 text-sm text-slate-400">
          {hint}
        </p>
      )}
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy(error && errorId, hint ? hintId : undefined),
      })}
      {liveError ? (
        <div aria-live="polite">
          <FieldError id={errorId} message={error} />
        </div>
      ) : (
        <FieldError id={errorId} message={error} />
      )}
    </div>
  );
}

export function TextField({ label, hint, error, note, value, onChange, inputRef, action, ...input }: TextFieldProps) {
  const ref = useAdoptingRef<HTMLInputElement>((input) => input.value, value, onChange, inputRef);
  return (
    <Labelled label={label} note={note} hint={hint} error={error}>
      {(control) => {
        const field = (
          <input
            {...control}
            ref={ref}
            {...input}
            type={input.type ?? "text"}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            className={`mt-1.5 ${controlClass}`}
          />
        );
        return action ? (
          <div className="flex items-end gap-2 sm:max-w-md">
            {field}
            {action}
          </div>
        ) : (
          field
        );
      }}
    </Labelled>
  );
}

interface SelectFieldProps {
  label: string;
  hint?: ReactNode;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  selectRef?: (element: HTMLSelectElement | null) => void;
  name: string;
  placeholder: string;
  options: { value: string; label: string }[];
  /** The error may appear as soon as an option is chosen: announce it. */
  liveError?: boolean;
}

export function SelectField({ label, hint, error, value, onChange, selectRef, name, placeholder, options, liveError }: SelectFieldProps) {
  const ref = useAdoptingRef<HTMLSelectElement>((select) => select.value || null, value, onChange, selectRef);
  return (
    <Labelled label={label} hint={hint} error={error} liveError={liveError}>
      {(control) => (
        <select
          {...control}
          ref={ref}
          name={name}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className={`mt-1.5 ${controlClass} sm:max-w-md`}
        >
          <option value="" disabled>
            {placeholder}
          </option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

export interface Choice {
  value: string;
  label: ReactNode;
  description?: ReactNode;
  /** Right-hand side of the option: a price, a count. */
  aside?: ReactNode;
  disabled?: boolean;
}

interface ChoiceGroupProps {
  legend: string;
  hint?: ReactNode;
  error?: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  choices: Choice[];
  groupRef?: (element: HTMLFieldSetElement | null) => void;
  /** Side by side (a few short labels), else one per row. */
  inline?: boolean;
  /** A long list: tighter rows in a box of its own height that scrolls. */
  long?: boolean;
  /** Between the legend and the options, e.g. a filter for a long list. */
  before?: ReactNode;
  /** Shown instead of the options when there are none (a filter matched nothing). */
  empty?: ReactNode;
}

/** Radio buttons as cards: arrow keys move between them, Space picks, as native radios do. */
export function ChoiceGroup(props: ChoiceGroupProps) {
  const { legend, hint, error, name, value, onChange, choices, groupRef, inline, long, before, empty } = props;
  const id = useId();
  const ref = useAdoptingRef<HTMLFieldSetElement>(
    (group) => group.querySelector<HTMLInputElement>("input[type=radio]:checked")?.value ?? null,
    value,
    onChange,
    groupRef,
  );
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <fieldset ref={ref} aria-describedby={describedBy(error && errorId, hint ? hintId : undefined)}>
      <legend className="font-medium text-slate-100">{legend}</legend>
      {hint && (
        <p id={hintId} className="mt-0.5 text-sm text-slate-400">
          {hint}
        </p>
      )}
      {before}
      {choices.length === 0 && empty}
      <div
        className={[
          "mt-1.5 grid",
          long ? "max-h-[26rem] gap-1.5 overflow-y-auto overscroll-contain rounded-md border p-1.5" : "gap-2",
          long ? (error ? "border-red-400" : "border-slate-700") : "",
          inline ? "auto-cols-fr grid-flow-col" : "",
        ].join(" ")}
      >
        {choices.map((choice) => {
          const checked = choice.value === value;
          return (
            <label
              key={choice.value}
              className={[
                "flex items-start gap-3 rounded-md border px-3",
                long ? "py-2" : "py-2.5",
                "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-sky-400",
                choice.disabled
                  ? "cursor-not-allowed border-slate-800 bg-slate-900/40 text-slate-400"
                  : checked
                    ? "cursor-pointer border-sky-400 bg-sky-950/50"
                    : error && !long
                      ? "cursor-pointer border-red-400 bg-slate-900"
                      : "cursor-pointer border-slate-600 bg-slate-900 hover:border-slate-500",
              ].join(" ")}
            >
              <input
                type="radio"
                name={name}
                value={choice.value}
                checked={checked}
                disabled={choice.disabled}
                onChange={() => onChange(choice.value)}
                aria-describedby={describedBy(error && errorId)}
                className="mt-1 size-4 shrink-0 accent-sky-400 focus-visible:outline-none"
              />
              <span className="min-w-0 flex-1 break-words">
                <span className="block font-medium">{choice.label}</span>
                {choice.description && <span className="block text-sm text-slate-400">{choice.description}</span>}
              </span>
              {choice.aside && <span className="shrink-0 text-right">{choice.aside}</span>}
            </label>
          );
        })}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

/** Server problems that belong to no single field: announced at once, never a blank page. */
export function FormAlert({ title, message, alertRef }: { title: string; message: string | null; alertRef?: Ref<HTMLDivElement> }) {
  return (
    <div ref={alertRef} role="alert" tabIndex={-1} className={message ? "rounded-md border border-red-400/70 bg-red-950/50 px-4 py-3" : ""}>
      {message && (
        <>
          <p className="font-semibold text-red-200">{title}</p>
          <p className="mt-1 text-red-100">{message}</p>
        </>
      )}
    </div>
  );
}

export function SubmitButton({ pending, label, pendingLabel }: { pending: boolean; label: string; pendingLabel: string }) {
  return (
    <button
      type="submit"
      aria-disabled={pending || undefined}
      className="w-full rounded-md bg-sky-400 px-5 py-3 text-base font-semibold text-slate-950 hover:bg-sky-300 aria-disabled:cursor-wait aria-disabled:opacity-70 sm:w-auto"
    >
      {pending ? pendingLabel : label}
    </button>
  );
}
