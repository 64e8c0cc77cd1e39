import { defineMessages } from "./define";

/** Filled in by the back office's orders pages. */
export const adminOrders = defineMessages({
  ru: { title: "" },
  en: { title: "" },
});
