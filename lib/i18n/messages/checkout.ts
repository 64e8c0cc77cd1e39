import { defineMessages } from "./define";

export const checkout = defineMessages({
  ru: {},
  en: {},
});
