import { defineMessages } from "./define";

export const pay = defineMessages({
  ru: {},
  en: {},
});
