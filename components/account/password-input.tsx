"use client";

import { useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { inputClass } from "./styles";

type Props = Omit<React.InputHTMLAttributes<HTMLInputElement>, "type" | "className"> & { ref?: React.Ref<HTMLInputElement> };

/** A password field with a show/hide switch, so a shopper can check what a phone keyboard typed. */
export function PasswordInput({ ref, ...props }: Props) {
  const { t } = useI18n();
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <input {...props} ref={ref} type={visible ? "text" : "password"} className={`${inputClass} pr-24`} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-label={visible ? t.account.fields.hidePassword : t.account.fields.showPassword}
        className="absolute inset-y-1 right-1 rounded px-3 text-sm font-medium text-sky-300 hover:bg-slate-800 hover:text-sky-200"
      >
        {visible ? t.account.fields.hide : t.account.fields.show}
      </button>
    </div>
  );
}
