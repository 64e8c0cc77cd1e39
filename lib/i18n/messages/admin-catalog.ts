import { defineMessages } from "./define";

/** Filled in by the back office's catalog pages. */
export const adminCatalog = defineMessages({
  ru: { title: "" },
  en: { title: "" },
});
