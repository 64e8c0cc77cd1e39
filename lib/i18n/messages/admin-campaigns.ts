import { defineMessages } from "./define";

/** Filled in by the back office's campaigns pages. */
export const adminCampaigns = defineMessages({
  ru: { title: "" },
  en: { title: "" },
});
