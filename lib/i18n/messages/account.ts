import { defineMessages } from "./define";

export const account = defineMessages({
  ru: {},
  en: {},
});
