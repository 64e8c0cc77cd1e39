// The payment page's addresses, the one place that spells them. Browser-safe.

/** The page a buyer pays on (`paymentUrl` is the store's origin and this). */
export const paymentPagePath = (intentId: string) => `/pay/${intentId}`;

/** Where the page's Pay and Decline buttons post. */
export const paymentSubmitPath = (intentId: string) => `/pay/${intentId}/submit`;

/** Where the page's Decline leads: a confirmation with the form that declines (no script needed). */
export const paymentDeclinePath = (intentId: string) => `/pay/${intentId}/decline`;

/** The store's own page for an intent's outcome, when the intent has no redirect URL of its own. */
export const paymentResultPath = (intentId: string) => `/pay/${intentId}/result`;

/** The link the API hands out, whatever payment provider is behind the page. */
export const paymentPageUrl = (origin: string, intentId: string) => `${origin}${paymentPagePath(intentId)}`;
