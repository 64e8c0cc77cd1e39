// The order page's address, browser-safe. A guest's link adds its proof (lib/orders/link.ts orderLinkPath).

/** `/orders/{id}`: enough for the signed-in owner; anyone else needs the signed link. */
export const orderPagePath = (intentId: string) => `/orders/${intentId}`;
