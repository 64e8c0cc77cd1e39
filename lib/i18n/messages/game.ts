import { defineMessages } from "./define";

/** The game page (/games/[appId]). */
export const game = defineMessages({
  ru: {
    breadcrumb: "Навигация",
    catalog: "Каталог",
    genres: "Жанры",
    editions: { title: "Издания", edition: "Издание", price: "Цена", main: "основное" },
    regions: {
      title: "Куда можно подарить",
      body: "Подарок получит друг с аккаунтом из одного из этих регионов.",
      none: "Сейчас эту игру нельзя подарить ни в один регион.",
      free: "Бесплатную игру дарить не нужно: друг скачает её сам.",
      region: "Регион",
      localPrice: "Цена в регионе",
      status: "Подарок",
      giftable: "Можно подарить",
      refusals: {
        game_not_released: "Нельзя: ещё не вышла",
        game_not_priced: "Нельзя: пока без цены",
        region_restricted: "Не продаётся в этом регионе",
        region_price_gap: "Нельзя: цена слишком отличается от нашей",
      },
    },
    buy: "Купить в подарок",
    unavailable: {
      game_not_released: "Игра ещё не вышла: купить её в подарок можно будет после релиза.",
      game_not_priced: "У игры пока нет цены, поэтому купить её в подарок нельзя.",
      region_not_giftable: "Эту игру сейчас нельзя подарить: магазин не продаёт её ни в один регион.",
    },
    freeToPlay: "Игра бесплатная: дарить её не нужно.",
    toGear: "Купить предметы для неё",
    notFound: {
      title: "Игра не найдена",
      body: "В магазине нет игры с таким номером. Возможно, её сняли с продажи или ссылка неполная.",
      search: "Найти игру в каталоге",
      find: "Найти",
      back: "В каталог",
    },
  },
  en: {
    breadcrumb: "Breadcrumb",
    catalog: "Catalog",
    genres: "Genres",
    editions: { title: "Editions", edition: "Edition", price: "Price", main: "main" },
    regions: {
      title: "Where it can be gifted",
      body: "Your friend's account must be in one of these regions.",
      none: "This game cannot be gifted to any region right now.",
      free: "A free game needs no gift: your friend can download it.",
      region: "Region",
      localPrice: "Local price",
      status: "Gift",
      giftable: "Can be gifted",
      refusals: {
        game_not_released: "No: not out yet",
        game_not_priced: "No: no price yet",
        region_restricted: "Not sold in this region",
        region_price_gap: "No: the price differs too much from ours",
      },
    },
    buy: "Buy as a gift",
    unavailable: {
      game_not_released: "This game is not out yet: it can be bought as a gift once it is released.",
      game_not_priced: "This game has no price yet, so it cannot be bought as a gift.",
      region_not_giftable: "This game cannot be gifted right now: the store does not sell it to any region.",
    },
    freeToPlay: "This game is free to play: there is nothing to gift.",
    toGear: "Buy gear for it",
    notFound: {
      title: "Game not found",
      body: "The store has no game with this number. It may have been withdrawn, or the link is cut short.",
      search: "Find a game in the catalog",
      find: "Search",
      back: "Go to the catalog",
    },
  },
});
