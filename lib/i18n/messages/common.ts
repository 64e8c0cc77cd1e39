import { defineMessages } from "./define";

/** Site chrome (header, footer, language switch) and words every page uses. */
export const common = defineMessages({
  ru: {
    siteTitle: "GiftKey — игры в подарок и игровые предметы",
    siteDescription: "Магазин цифровых игр: подарки друзьям и игровые предметы, цены в рублях.",
    skipToContent: "Перейти к содержимому",
    mainNav: "Главное меню",
    home: "GiftKey — на главную",
    nav: { catalog: "Каталог", gear: "Предметы", api: "API", account: "Кабинет", signIn: "Войти" },
    language: { label: "Язык", ru: "Русский", en: "English" },
    footer: {
      tagline: "Игры в подарок и игровые предметы. Все цены в рублях.",
      links: "Ссылки",
    },
    price: {
      none: "Цены пока нет",
      free: "Бесплатно",
      gear: "Предметы для игры →",
      was: "Было {price}",
      now: "сейчас {price}",
      discount: "Скидка {percent} %",
    },
    arrival: {
      label: "Уведомление",
      accountCreated: "Готово: аккаунт создан, и вы уже вошли в него.",
    },
    comingSoon: "Скоро",
    retry: "Повторить",
    loading: "Загрузка…",
    notFound: {
      title: "Страница не найдена",
      body: "Такой страницы нет: возможно, ссылка устарела или в адресе опечатка.",
      home: "В каталог",
    },
    badRequest: {
      title: "Адрес не читается",
      body: "В адресе страницы есть символы, которые магазин не может прочитать: возможно, ссылка обрезана или искажена при копировании.",
      home: "В каталог",
      reference: "Код запроса: {requestId}",
    },
    error: {
      title: "Что-то пошло не так",
      body: "Страница не загрузилась из-за ошибки на нашей стороне. Попробуйте ещё раз через минуту.",
      reference: "Код ошибки для поддержки: {digest}",
      home: "В каталог",
    },
  },
  en: {
    siteTitle: "GiftKey — games as gifts and in-game gear",
    siteDescription: "A digital games store: gifts for friends and in-game gear, priced in roubles.",
    skipToContent: "Skip to content",
    mainNav: "Main menu",
    home: "GiftKey home",
    nav: { catalog: "Catalog", gear: "Gear", api: "API", account: "Account", signIn: "Sign in" },
    language: { label: "Language", ru: "Русский", en: "English" },
    footer: {
      tagline: "Games as gifts and in-game gear. All prices in roubles.",
      links: "Links",
    },
    price: {
      none: "No price yet",
      free: "Free to play",
      gear: "Gear for it →",
      was: "Was {price}",
      now: "now {price}",
      discount: "{percent}% off",
    },
    arrival: {
      label: "Notice",
      accountCreated: "Done: your account is created and you are signed in.",
    },
    comingSoon: "Coming soon",
    retry: "Retry",
    loading: "Loading…",
    notFound: {
      title: "Page not found",
      body: "There is no such page: the link may be out of date, or the address has a typo.",
      home: "Go to the catalog",
    },
    badRequest: {
      title: "The address cannot be read",
      body: "The page's address has characters the store cannot read: the link may have been cut off or garbled when it was copied.",
      home: "Go to the catalog",
      reference: "Request id: {requestId}",
    },
    error: {
      title: "Something went wrong",
      body: "The page did not load because of an error on our side. Please try again in a minute.",
      reference: "Error code for support: {digest}",
      home: "Go to the catalog",
    },
  },
});
