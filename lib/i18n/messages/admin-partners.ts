import { defineMessages } from "./define";

/** Filled in by the back office's partners pages. */
export const adminPartners = defineMessages({
  ru: { title: "" },
  en: { title: "" },
});
