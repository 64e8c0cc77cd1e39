/** A game anyone can play for nothing: no price, and the store files it as free to play. */
export function isFreeToPlay(game: { price: unknown; genres: readonly string[] }): boolean {
  return game.price === null && game.genres.includes("Free to Play");
}
