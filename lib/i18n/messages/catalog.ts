import { defineMessages } from "./define";

export const catalog = defineMessages({
  ru: {},
  en: {},
});
