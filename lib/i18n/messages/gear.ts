import { defineMessages } from "./define";

/** The gear page (/gear): choosing a game and an item, and the account it goes to. */
export const gear = defineMessages({
  ru: {
    metaTitle: "Игровые предметы",
    heading: "Игровые предметы",
    intro: "Предмет придёт на ваш аккаунт предложением обмена. Пока вы оплачиваете, мы держим его за вами.",
    platform: { legend: "Игра" },
    item: {
      legend: "Предмет",
      available: {
        one: "{count} шт. в наличии",
        few: "{count} шт. в наличии",
        many: "{count} шт. в наличии",
        other: "{count} шт. в наличии",
      },
      inStock: "В наличии",
      outOfStock: "Нет в наличии",
      empty: "Для этой игры сейчас нет предметов.",
      loadFailed: "Не удалось загрузить список предметов.",
      updating: "Обновляем наличие…",
      filter: "Найти по названию",
      count: {
        one: "{count} предмет в списке",
        few: "{count} предмета в списке",
        many: "{count} предметов в списке",
        other: "{count} предмета в списке",
      },
      noMatch: "Ничего не нашлось — измените запрос.",
    },
    account: {
      legend: "Куда отправить",
      label: "SteamID64 аккаунта",
      hint: "17 цифр, начинается с 7656119. Где найти: Steam → имя аккаунта справа вверху → «Об аккаунте» — строка «Steam ID»; или адрес вашего профиля вида steamcommunity.com/profiles/7656119….",
    },
    tradeLink: {
      label: "Трейд-ссылка",
      hint: "Steam → Инвентарь → Предложения обмена → «Кто может отправлять мне предложения обмена?» → раздел «Сторонние сайты»: скопируйте ссылку на обмен.",
      matches: "Трейд-ссылка принадлежит этому аккаунту.",
    },
    submit: "Отложить предмет и оформить заказ",
    submitting: "Оформляем…",
  },
  en: {
    metaTitle: "In-game items",
    heading: "In-game items",
    intro: "The item arrives on your account as a trade offer. We hold it for you while you pay.",
    platform: { legend: "Game" },
    item: {
      legend: "Item",
      available: { one: "{count} in stock", few: "{count} in stock", many: "{count} in stock", other: "{count} in stock" },
      inStock: "In stock",
      outOfStock: "Out of stock",
      empty: "No items for this game right now.",
      loadFailed: "The item list could not be loaded.",
      updating: "Updating availability…",
      filter: "Find by name",
      count: {
        one: "{count} item in the list",
        few: "{count} items in the list",
        many: "{count} items in the list",
        other: "{count} items in the list",
      },
      noMatch: "Nothing matches — try another search.",
    },
    account: {
      legend: "Where to send it",
      label: "Account SteamID64",
      hint: "17 digits starting with 7656119. Where to find it: Steam → your account name (top right) → Account details — the “Steam ID” line; or your profile address steamcommunity.com/profiles/7656119….",
    },
    tradeLink: {
      label: "Trade link",
      hint: "Steam → Inventory → Trade Offers → “Who can send me Trade Offers?” → Third-Party Sites: copy your Trade URL.",
      matches: "The trade link belongs to this account.",
    },
    submit: "Hold the item and create the order",
    submitting: "Creating…",
  },
});
