import { defineMessages } from "./define";

/** The hosted payment page /pay/{intentId} and its result page. */
export const pay = defineMessages({
  ru: {
    title: "Оплата заказа",
    resultTitle: "Результат оплаты",
    sandbox: {
      label: "Тестовый режим",
      text: "Деньги не списываются: кнопки ниже только имитируют оплату и отказ от неё.",
    },
    order: {
      heading: "Что вы покупаете",
      gift: "Подарок другу",
      edition: "Издание: {edition}",
      region: "Регион получателя: {region}",
      gear: "Игровой предмет в {game}",
      account: "Аккаунт Steam",
      recipient: "Аккаунт друга (SteamID64)",
      receipt: "Чек придёт на {email}",
    },
    amounts: {
      heading: "Сумма",
      price: "Цена",
      discount: "Скидка по промокоду {code}",
      fee: "Комиссия сервиса",
      feeIncluded: "в т. ч. комиссия сервиса",
      total: "К оплате",
    },
    deadline: {
      payBefore: "Оплатите до {time}",
      left: "Осталось: {time}",
      over: "Время на оплату вышло",
    },
    actions: {
      heading: "Оплата",
      pay: "Оплатить {amount}",
      decline: "Отказаться от оплаты",
      sandboxHint: "Тестовый платёж: деньги не спишутся.",
    },
    outcome: {
      paid: { title: "Оплачено", text: "Оплата получена {time}. Спасибо за покупку!" },
      fulfilled: { title: "Оплачено и доставлено", text: "Оплата получена {paid}, заказ доставлен {time}." },
      canceled: { title: "Оплата отменена", text: "Вы отказались от оплаты {time}. Деньги не списаны." },
      refunded: { title: "Деньги возвращены", text: "Оплата получена {paid}, деньги возвращены {time}." },
      expired: {
        title: "Время на оплату истекло",
        text: "Ссылка на оплату действовала до {time}. Деньги не списаны — оформите заказ заново.",
      },
      requires_payment: { title: "Заказ ещё не оплачен", text: "Оплатите его до {time}." },
      toPayment: "Перейти к оплате",
      backToPartner: "Вернуться в магазин",
      backToStore: "На главную GiftKey",
      backToGame: "Вернуться к игре {game}",
      backToGear: "Вернуться к игровым предметам",
    },
    decline: {
      title: "Отказаться от оплаты?",
      text: "Заказ «{title}» на {amount} будет отменён, деньги не спишутся. Отменить это нельзя: чтобы купить снова, заказ придётся оформить заново.",
      confirm: "Да, отказаться",
      back: "Вернуться к оплате",
    },
    next: {
      heading: "Что дальше",
      giftByPerson:
        "Сотрудник GiftKey отправит подарок вручную с аккаунта GiftKey в Steam: сначала заявку в друзья получателю, а когда он её примет — сам подарок. Обычно это занимает несколько часов после оплаты.",
      giftByBot:
        "Наш бот в течение нескольких минут отправит получателю заявку в друзья с аккаунта GiftKey в Steam, а когда он её примет — сам подарок. Обычно всё занимает несколько минут; дольше — только если друг не спешит принять заявку.",
      gearByPerson:
        "Сотрудник GiftKey отправит предложение обмена на указанный аккаунт Steam — обычно в течение нескольких часов. Примите его в Steam.",
      gearByBot: "Наш бот в течение нескольких минут отправит предложение обмена на указанный аккаунт Steam. Примите его в Steam.",
      refundPromise: "Если доставить не получится, деньги вернутся автоматически. О каждом шаге мы напишем на почту.",
      follow: "Следить за заказом",
      order: "Открыть страницу заказа",
    },
    notFound: {
      title: "Платёж не найден",
      text: "Проверьте ссылку: возможно, в ней опечатка. Если вы пришли из магазина-партнёра, вернитесь туда и начните оплату заново.",
    },
  },
  en: {
    title: "Pay for your order",
    resultTitle: "Payment result",
    sandbox: {
      label: "Sandbox",
      text: "No money is charged: the buttons below only simulate paying or declining.",
    },
    order: {
      heading: "What you are buying",
      gift: "A gift for a friend",
      edition: "Edition: {edition}",
      region: "Recipient's region: {region}",
      gear: "In-game item in {game}",
      account: "Steam account",
      recipient: "Friend's account (SteamID64)",
      receipt: "The receipt goes to {email}",
    },
    amounts: {
      heading: "Amount",
      price: "Price",
      discount: "Promo code {code}",
      fee: "Service fee",
      feeIncluded: "including service fee",
      total: "To pay",
    },
    deadline: {
      payBefore: "Pay before {time}",
      left: "Time left: {time}",
      over: "The time to pay is over",
    },
    actions: {
      heading: "Payment",
      pay: "Pay {amount}",
      decline: "Decline payment",
      sandboxHint: "A test payment: no money will be charged.",
    },
    outcome: {
      paid: { title: "Paid", text: "Payment received {time}. Thank you for your purchase!" },
      fulfilled: { title: "Paid and delivered", text: "Payment received {paid}, order delivered {time}." },
      canceled: { title: "Payment declined", text: "You declined the payment {time}. Nothing was charged." },
      refunded: { title: "Refunded", text: "Payment received {paid}, refunded {time}." },
      expired: {
        title: "The time to pay has run out",
        text: "The payment link was valid until {time}. Nothing was charged; please place the order again.",
      },
      requires_payment: { title: "Not paid yet", text: "Please pay before {time}." },
      toPayment: "Go to payment",
      backToPartner: "Back to the shop",
      backToStore: "GiftKey home page",
      backToGame: "Back to {game}",
      backToGear: "Back to in-game items",
    },
    decline: {
      title: "Decline this payment?",
      text: "Your order “{title}” for {amount} will be canceled and nothing will be charged. This cannot be undone: to buy it after all, you would place the order again.",
      confirm: "Yes, decline",
      back: "Back to payment",
    },
    next: {
      heading: "What happens next",
      giftByPerson:
        "A member of the GiftKey team sends the gift by hand from GiftKey's Steam account: first a friend request to the recipient, then, once they accept it, the gift. This usually takes a few hours after payment.",
      giftByBot:
        "Within a few minutes our bot sends the recipient a friend request from GiftKey's Steam account, then, once they accept it, the gift. It usually all takes minutes; longer only if your friend is slow to accept.",
      gearByPerson:
        "A member of the GiftKey team sends a trade offer to the Steam account you gave, usually within a few hours. Accept it in Steam.",
      gearByBot: "Within a few minutes our bot sends a trade offer to the Steam account you gave. Accept it in Steam.",
      refundPromise: "If it cannot be delivered, the money goes back automatically. We e-mail you at every step.",
      follow: "Follow your order",
      order: "Open the order page",
    },
    notFound: {
      title: "Payment not found",
      text: "Check the link for typos. If you came from a partner shop, go back there and start the payment again.",
    },
  },
});
