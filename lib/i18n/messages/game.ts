import { defineMessages } from "./define";

export const game = defineMessages({
  ru: {},
  en: {},
});
