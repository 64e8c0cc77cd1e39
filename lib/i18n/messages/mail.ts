import { defineMessages } from "./define";

/**
 * Outgoing mail (lib/mail). Not in the pages' message index: mail is rendered on the server only,
 * so these texts never ship to a browser.
 */
export const mail = defineMessages({
  ru: {
    brand: "GiftKey",
    kinds: {
      receipt: {
        subject: "Чек: {title} — {amount}",
        preview: "Оплата {amount} получена. Спасибо за покупку!",
        heading: "Спасибо за покупку!",
        intro: "Оплата получена {time}. Ниже — что вы купили и из чего сложилась сумма.",
      },
      delivered: {
        subject: "Заказ доставлен: {title}",
        preview: "{title} доставлен.",
        heading: "Заказ доставлен",
        intro: "Всё, что вы купили, доставлено. Приятной игры!",
      },
      delivery_failed_refunded: {
        subject: "Не удалось доставить заказ, деньги возвращены: {title}",
        preview: "Мы не смогли доставить заказ и вернули {amount}.",
        heading: "Заказ не доставлен, деньги возвращены",
        intro: "Мы не смогли доставить заказ и вернули вам {amount} тем же способом, которым вы платили. Срок зачисления зависит от банка.",
      },
      refunded: {
        subject: "Возврат по заказу: {title}",
        preview: "Мы вернули {amount}.",
        heading: "Деньги возвращены",
        intro: "Мы вернули вам {amount} тем же способом, которым вы платили. Срок зачисления зависит от банка.",
      },
    },
    order: {
      number: "Заказ № {id}",
      what: "Что куплено",
      gift: "Подарок другу: {title}",
      edition: "Издание: {edition}",
      gear: "{item} для игры {game}",
      forWhom: "Для кого",
      invite: "Ссылка-приглашение друга: {url}",
      region: "Регион получателя: {region}",
      account: "Аккаунт Steam (SteamID64): {account}",
    },
    amounts: {
      heading: "Сумма",
      price: "Цена",
      discount: "Скидка по промокоду {code}",
      fee: "Комиссия сервиса",
      feeIncluded: "в т. ч. комиссия сервиса",
      total: "Оплачено",
      refunded: "Возвращено",
    },
    link: {
      button: "Открыть заказ",
      hint: "Заказ всегда можно открыть по этой ссылке; не пересылайте её другим.",
    },
    footer: "Письмо отправлено на {email}, потому что на этот адрес оформлен заказ в GiftKey. Отвечать на него не нужно.",
    confirmation: {
      subject: "Подтвердите адрес почты в GiftKey",
      preview: "Одна кнопка — и адрес {email} подтверждён.",
      heading: "Подтвердите адрес почты",
      intro:
        "На адрес {email} зарегистрирован аккаунт в GiftKey. Подтвердите, что это ваш адрес: тогда в кабинете появятся заказы, оформленные на него без входа, а роль сотрудника, если её выдадут, начнёт действовать.",
      button: "Подтвердить адрес",
      hint: "Кнопка не открывается? Скопируйте ссылку в браузер:",
      expires: "Ссылка действует {hours} часов и только один раз. Новую можно отправить из кабинета.",
      notYou:
        "Если вы не регистрировались в GiftKey, ничего не делайте: без подтверждения аккаунт не получит доступа ни к чему, что связано с вашим адресом.",
      footer: "Письмо отправлено на {email}, потому что с этим адресом зарегистрировались в GiftKey. Отвечать на него не нужно.",
    },
  },
  en: {
    brand: "GiftKey",
    kinds: {
      receipt: {
        subject: "Receipt: {title} — {amount}",
        preview: "We received your payment of {amount}. Thank you!",
        heading: "Thank you for your purchase!",
        intro: "Payment received {time}. Here is what you bought and how the amount came about.",
      },
      delivered: {
        subject: "Order delivered: {title}",
        preview: "{title} has been delivered.",
        heading: "Your order has been delivered",
        intro: "Everything you bought has been delivered. Enjoy the game!",
      },
      delivery_failed_refunded: {
        subject: "We could not deliver your order and refunded it: {title}",
        preview: "We could not deliver your order and returned {amount}.",
        heading: "Order not delivered, money returned",
        intro: "We could not deliver your order and returned {amount} to the way you paid. When it arrives depends on your bank.",
      },
      refunded: {
        subject: "Refund for your order: {title}",
        preview: "We returned {amount}.",
        heading: "Money returned",
        intro: "We returned {amount} to the way you paid. When it arrives depends on your bank.",
      },
    },
    order: {
      number: "Order {id}",
      what: "What you bought",
      gift: "A gift for a friend: {title}",
      edition: "Edition: {edition}",
      gear: "{item} for {game}",
      forWhom: "For whom",
      invite: "Friend's invite link: {url}",
      region: "Recipient's region: {region}",
      account: "Steam account (SteamID64): {account}",
    },
    amounts: {
      heading: "Amount",
      price: "Price",
      discount: "Promo code {code}",
      fee: "Service fee",
      feeIncluded: "including the service fee",
      total: "Paid",
      refunded: "Returned",
    },
    link: {
      button: "View your order",
      hint: "This link always opens your order; do not share it.",
    },
    footer: "Sent to {email} because an order at GiftKey was placed with this address. No need to reply.",
    confirmation: {
      subject: "Confirm your e-mail address at GiftKey",
      preview: "One button, and {email} is confirmed.",
      heading: "Confirm your e-mail address",
      intro:
        "An account at GiftKey was registered with {email}. Confirm that the address is yours: your account will then show the orders placed with it without signing in, and a staff role, if you are given one, will take effect.",
      button: "Confirm the address",
      hint: "If the button does not open, copy this link into your browser:",
      expires: "The link works for {hours} hours and only once. You can send a new one from your account page.",
      notYou:
        "If you did not sign up at GiftKey, do nothing: without confirmation the account gets access to nothing tied to your address.",
      footer: "Sent to {email} because someone signed up at GiftKey with this address. No need to reply.",
    },
  },
});
