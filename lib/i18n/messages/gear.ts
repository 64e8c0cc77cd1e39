import { defineMessages } from "./define";

export const gear = defineMessages({
  ru: {},
  en: {},
});
