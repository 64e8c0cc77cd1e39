"use client";

import { useEffect, useRef, useState } from "react";
import type { CheckoutField } from "@/lib/i18n/checkout-errors";

/**
 * Moves focus to a field (or the form's alert) after the render that shows its error, so a screen
 * reader reads the control together with the message it is described by.
 */
export function useFocusRequest() {
  const refs = useRef<Partial<Record<CheckoutField, HTMLElement | null>>>({});
  const alertRef = useRef<HTMLDivElement>(null);
  const [request, setRequest] = useState<{ target: CheckoutField | "alert"; serial: number } | null>(null);

  useEffect(() => {
    if (!request) return;
    const element = request.target === "alert" ? alertRef.current : refs.current[request.target];
    if (!element) return;
    // A radio group is focused at its checked option, else its first one that can be chosen.
    const target =
      element instanceof HTMLFieldSetElement
        ? (element.querySelector<HTMLElement>("input[type=radio]:checked:not(:disabled)") ??
          element.querySelector<HTMLElement>("input[type=radio]:not(:disabled)") ??
          element)
        : element;
    target.focus();
    if (target === element && element instanceof HTMLFieldSetElement) element.scrollIntoView({ block: "center" });
  }, [request]);

  return {
    /** The ref callback for a field's control (or a radio group's fieldset). */
    register: (field: CheckoutField) => (element: HTMLElement | null) => {
      refs.current[field] = element;
    },
    alertRef,
    requestFocus: (target: CheckoutField | "alert") => setRequest((r) => ({ target, serial: (r?.serial ?? 0) + 1 })),
  };
}
