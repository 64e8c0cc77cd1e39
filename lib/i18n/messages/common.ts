import { defineMessages } from "./define";

/** Site chrome (header, footer, language switch) and words every page uses. */
export const common = defineMessages({
  ru: {
    siteTitle: "GiftKey — игры в подарок и игровые предметы",
    siteDescription: "Магазин цифровых игр: подарки друзьям и игровые предметы, цены в рублях.",
    skipToContent: "Перейти к содержимому",
    mainNav: "Главное меню",
    nav: { catalog: "Каталог", gear: "Предметы", api: "API", account: "Кабинет", signIn: "Войти" },
    language: { label: "Язык", ru: "Русский", en: "English" },
    retry: "Повторить",
    loading: "Загрузка…",
  },
  en: {
    siteTitle: "GiftKey — games as gifts and in-game gear",
    siteDescription: "A digital games store: gifts for friends and in-game gear, priced in roubles.",
    skipToContent: "Skip to content",
    mainNav: "Main menu",
    nav: { catalog: "Catalog", gear: "Gear", api: "API", account: "Account", signIn: "Sign in" },
    language: { label: "Language", ru: "Русский", en: "English" },
    retry: "Retry",
    loading: "Loading…",
  },
});
