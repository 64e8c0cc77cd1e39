import { defineMessages } from "./define";

/**
 * The checkout forms (gift and gear): shared fields, the order summary, and every message a
 * shopper can see when something is wrong, keyed by field and by what is wrong with it.
 */
export const checkout = defineMessages({
  ru: {
    gift: {
      heading: "Купить в подарок",
      intro: "Игра придёт другу подарком в его библиотеку. Оплата — на следующем шаге.",
      inviteUrl: {
        label: "Ссылка-приглашение друга",
        hint: "Друг найдёт её в Steam: Друзья → Добавить друга → «Ваша ссылка для приглашения в друзья». Она выглядит так: https://s.team/p/fhgc-rdqr/NQVGTQPG",
        recipient: "Подарок получит аккаунт SteamID64 {steamId}.",
      },
      region: {
        label: "Регион получателя",
        hint: "Страна аккаунта друга. Подарок можно отправить только в эти регионы.",
        placeholder: "Выберите регион",
        option: "{region} — нельзя: {why}",
        refused: { region_restricted: "не продаётся", region_price_gap: "цена далека от нашей" },
      },
      edition: { legend: "Издание", notOnSale: "нет в продаже", was: "было" },
      submit: "Оформить подарок",
      submitting: "Оформляем…",
      unavailable: {
        game_not_released: "Игра ещё не вышла — купить её в подарок пока нельзя.",
        game_not_priced: "Эта игра сейчас не продаётся.",
        region_not_giftable: "Эту игру нельзя отправить в подарок.",
      },
    },
    email: {
      label: "E-mail для чека",
      hint: "Пришлём чек и статус заказа.",
    },
    code: {
      label: "Промокод",
      optional: "необязательно",
      hint: "Если есть: нажмите «Применить» — цена ниже обновится до оформления.",
      apply: "Применить",
      applying: "Проверяем…",
      applied: "Промокод {code} применён: скидка {amount}.",
    },
    quote: {
      refused: "Сейчас заказ не пройдёт:",
      failed: "Не удалось проверить промокод: нет связи с магазином.",
    },
    summary: {
      heading: "Заказ оформлен — осталось оплатить",
      intent: "Номер заказа",
      expires: "Оплатите до {time}: потом заказ отменится.",
      reserved: "Предмет отложен для вас до {time}; если не оплатить, он вернётся в продажу.",
      proceed: "Перейти к оплате",
      another: "Оформить ещё один заказ",
      giftTo: "Подарок: {title}, регион {region}",
      gearFor: "{title} для аккаунта {account}",
    },
    errors: {
      alertTitle: "Заказ не оформлен",
      checkFields: "Исправьте отмеченные поля.",
      fields: {
        inviteUrl: {
          required: "Вставьте ссылку-приглашение друга.",
          invalid: "Это не ссылка-приглашение. Нужна ссылка вида https://s.team/p/fhgc-rdqr/NQVGTQPG.",
          tooLong: "Ссылка слишком длинная: это точно ссылка-приглашение?",
          mismatch: "По этой ссылке не найти аккаунт друга: проверьте, что она скопирована целиком.",
        },
        region: {
          required: "Выберите регион получателя.",
          invalid: "Выберите регион из списка.",
        },
        packageId: { invalid: "Выберите издание из списка." },
        email: {
          required: "Укажите e-mail: на него придёт чек.",
          invalid: "Проверьте e-mail: нужен адрес вида name@example.com.",
          tooLong: "E-mail слишком длинный (не больше 254 символов).",
        },
        fee: { invalid: "Выберите, как учитывать комиссию." },
        code: {
          invalid: "В промокоде бывают только латинские буквы, цифры, «-» и «_» (до 64 символов).",
        },
        account: {
          required: "Укажите SteamID64 аккаунта.",
          invalid: "SteamID64 — это 17 цифр, начинается с 7656119.",
        },
        tradeLink: {
          required: "Вставьте трейд-ссылку: по ней придёт предмет.",
          invalid: "Это не трейд-ссылка. Нужна ссылка вида https://steamcommunity.com/tradeoffer/new/?partner=…&token=….",
          tooLong: "Ссылка слишком длинная: это точно трейд-ссылка?",
          mismatch: "Трейд-ссылка принадлежит другому аккаунту, не этому SteamID64.",
        },
        item: {
          required: "Выберите предмет.",
          invalid: "Выберите предмет из списка.",
        },
        platform: { invalid: "Выберите игру из списка." },
      },
      server: "Магазин не смог оформить заказ. Попробуйте ещё раз чуть позже.",
      network: "Нет связи с магазином. Проверьте подключение и попробуйте снова.",
      details: "Ответ магазина: {message}",
    },
  },
  en: {
    gift: {
      heading: "Buy as a gift",
      intro: "The game arrives in your friend's library as a gift. You pay on the next step.",
      inviteUrl: {
        label: "Your friend's invite link",
        hint: "Your friend finds it in Steam: Friends → Add a Friend → “Your Friend Invite Link”. It looks like https://s.team/p/fhgc-rdqr/NQVGTQPG",
        recipient: "The gift goes to the account with SteamID64 {steamId}.",
      },
      region: {
        label: "Recipient's region",
        hint: "The country of your friend's account. The gift can only go to these regions.",
        placeholder: "Choose a region",
        option: "{region} — no: {why}",
        refused: { region_restricted: "not sold there", region_price_gap: "price too far from ours" },
      },
      edition: { legend: "Edition", notOnSale: "not on sale", was: "was" },
      submit: "Create gift order",
      submitting: "Creating…",
      unavailable: {
        game_not_released: "This game is not out yet, so it cannot be gifted yet.",
        game_not_priced: "This game is not on sale right now.",
        region_not_giftable: "This game cannot be sent as a gift.",
      },
    },
    email: {
      label: "E-mail for the receipt",
      hint: "We send the receipt and order updates here.",
    },
    code: {
      label: "Promo code",
      optional: "optional",
      hint: "If you have one: press Apply and the price below updates before you order.",
      apply: "Apply",
      applying: "Checking…",
      applied: "Promo code {code} applied: {amount} off.",
    },
    quote: {
      refused: "This order would not go through now:",
      failed: "The promo code could not be checked: no connection to the store.",
    },
    summary: {
      heading: "Order created — one step left: payment",
      intent: "Order number",
      expires: "Pay by {time}; after that the order is cancelled.",
      reserved: "The item is held for you until {time}; unpaid, it goes back on sale.",
      proceed: "Proceed to payment",
      another: "Place another order",
      giftTo: "Gift: {title}, region {region}",
      gearFor: "{title} for account {account}",
    },
    errors: {
      alertTitle: "The order was not created",
      checkFields: "Please correct the marked fields.",
      fields: {
        inviteUrl: {
          required: "Paste your friend's invite link.",
          invalid: "This is not an invite link. It looks like https://s.team/p/fhgc-rdqr/NQVGTQPG.",
          tooLong: "This link is too long to be an invite link.",
          mismatch: "This link does not lead to your friend's account: check that it was copied whole.",
        },
        region: {
          required: "Choose the recipient's region.",
          invalid: "Choose a region from the list.",
        },
        packageId: { invalid: "Choose an edition from the list." },
        email: {
          required: "Enter your e-mail: the receipt goes there.",
          invalid: "Check the e-mail: it should look like name@example.com.",
          tooLong: "This e-mail is too long (254 characters at most).",
        },
        fee: { invalid: "Choose how the fee is charged." },
        code: {
          invalid: "Promo codes have only Latin letters, digits, “-” and “_” (up to 64).",
        },
        account: {
          required: "Enter the account's SteamID64.",
          invalid: "A SteamID64 has 17 digits and starts with 7656119.",
        },
        tradeLink: {
          required: "Paste your trade link: the item is sent through it.",
          invalid: "This is not a trade link. It looks like https://steamcommunity.com/tradeoffer/new/?partner=…&token=….",
          tooLong: "This link is too long to be a trade link.",
          mismatch: "This trade link belongs to another account, not to this SteamID64.",
        },
        item: {
          required: "Choose an item.",
          invalid: "Choose an item from the list.",
        },
        platform: { invalid: "Choose a game from the list." },
      },
      server: "The store could not create the order. Please try again shortly.",
      network: "Cannot reach the store. Check your connection and try again.",
      details: "The store said: {message}",
    },
  },
});
