import { MIN_PAYMENT_KOPECKS } from "@/lib/money";
import { CATALOG_MAX_LIMIT } from "@/lib/schemas/catalog";
import { API_SCOPES } from "@/lib/schemas/tokens";
import { CALLBACKS_GUIDE } from "@/lib/webhooks/guide";

// The API's documented decisions, in the product's words. The reference page renders these too.
export const API_GUIDE: { title: string; body: string[] }[] = [
  {
    title: "Authentication",
    body: [
      "Every /api/v1 request carries `Authorization: Bearer <token>`. Tokens look like `gk_live_` followed by 43 letters and digits, are stored only as a SHA-256 hash, are shown once when created, may expire, can be revoked, and record when they were last used (to the minute).",
      `A token holds one or more scopes: ${API_SCOPES.map((s) => `\`${s}\``).join(", ")}. The catalog, game and gear-item reads need \`catalog:read\`; POST /gifts/verify needs \`gifts:verify\`; POST /gear needs \`gear:create\`; GET /intents/{intentId} needs \`intents:read\` POST /intents/{intentId}/refund needs \`intents:refund\`, which only a partner account's tokens may hold: an account the store's admins made a partner. Any other account's request for it is refused (403 \`partner_required\`) when the token is made.`,
      "A missing, malformed, unknown, expired or revoked token is 401 with a `WWW-Authenticate: Bearer` challenge; a valid token without the scope is 403.",
      "Each server process reuses a successful token lookup for up to AUTH_CACHE_TTL_MS (5 s by default), so a revocation takes effect at once on the instance that made it and within 5 seconds everywhere else. Expiry is checked on every request.",
      "Operators create tokens with `npm run --silent token:create -- --name NAME [--scopes catalog:read,gifts:verify] [--expires-in 30d] [--owner EMAIL] [--partner]` (the token is the last line printed), list them with `npm run token:list` and revoke with `npm run token:revoke -- ID_OR_PREFIX`. A token belongs to the account `--owner` names (the store's own operator account by default, which is a partner); `--partner` makes that account a partner first.",
    ],
  },
  {
    title: "Amounts and fees",
    body: [
      "Every amount is an integer number of kopecks (RUB minor units): 129900 is 1 299 ₽. The server computes every amount; a client never sends one.",
      "The fee rate r is set by the store (FEE_RATE, 5 % by default). `base` is the price after the promo code. `excluded`: the fee is added on top, pay = base + round(base × r). `included`: the fee is inside the price, pay = base. `naive`: the fee is taken as r of the payment, pay = ceil(base / (1 − r)). So included ≤ excluded ≤ naive. Halves round up.",
      "The store's own pages charge gifts with one fee mode, STOREFRONT_FEE_MODE (`included` by default), and show every price all-in, fee and all, from the catalog card to the payment page; partners choose `fee` on each request. Gear supports only `excluded`, which is also its default. `intentAmount` in a gear response is the item's price before promo code and fee; `paymentAmount` is what the gamer pays.",
      "Beyond the description, both intent responses show how the amount came about and how long it holds: `intentAmount` (the price before promo code and fee; gear always had it), `discountAmount`, `feeAmount` and `expiresAt`. `paymentAmount` = `intentAmount` − `discountAmount`, plus `feeAmount` unless the fee is `included`.",
    ],
  },
  {
    title: "Promo codes",
    body: [
      "Codes are case-insensitive. A code is a percent or a fixed discount, may have a validity window and a usage limit, and may be limited to gifts, to gear, or to particular games or platforms.",
      `A discount never takes a price below ${MIN_PAYMENT_KOPECKS / 100} ₽ (or below the price itself when that is lower). Percent discounts round half up to the kopeck.`,
      "An unknown, not-yet-valid, expired, used-up or inapplicable code is 400 and nothing is recorded. A use is counted in the same transaction that creates the intent.",
    ],
  },
  {
    title: "Catalog",
    body: [
      `\`page\` starts at 0; \`limit\` is 1 to ${CATALOG_MAX_LIMIT} (default 20). Filters combine: \`genre\` (one genre, case-insensitive), \`steamCategory\` (\`specials\` are exactly the discounted games, \`coming_soon\` the announced ones, \`top_sellers\` and \`new_releases\` curated lists), \`query\` (1 to 200 characters), \`giftableTo\` (a two-letter region, either case: only games that can be gifted there now).`,
      "`giftableTo=KZ` keeps the games POST /gifts/verify would accept for KZ with their main edition: released, priced, KZ among their gift regions, not restricted there, and with a KZ price that, converted at the store's latest rate, is within GIFT_PRICE_GAP (10 % by default) of the store's price. It is read from a table the store rebuilds whenever games, prices or rates change, so it is as fast as the other filters and its `total` is exact. A code that is not two letters is 400; a region no game can go to is an empty page.",
      "`query` is full-text search in PostgreSQL over titles and short descriptions, in Russian and English (stemmed) and as typed: every word must match, the last characters of a word may be missing (search as you type), and title matches rank before description matches.",
      "Order is stable: relevance for a search, then store popularity, then appId, so pages never repeat or skip a game. A page past the end is 200 with `games: []` and the real `total`. `lang` (ru by default, or en) picks the language of titles and descriptions. Unknown parameters (`utm_source`, …) are ignored; an empty parameter counts as not given.",
      "Catalog answers may be a few seconds old, at most twice CATALOG_CACHE_TTL_MS (5 s by default): identical requests share one database read, and an expired answer is served while one refresh replaces it. `total` is exact for the data the answer was read from.",
      "`price` is null when no price is known. `paymentAmountFull` and `discountPercent` appear only when the game is discounted. `comingSoon` marks games that cannot be bought yet. `headerImage` is an absolute URL of the cover.",
    ],
  },
  {
    title: "Gifts",
    body: [
      "POST /gifts/verify needs `item` (the appId, digits, as a string or number), `target.inviteUrl` (the recipient's friend-invite link, https://s.team/p/<code>/<token>), `target.region` (two letters), `email` and `fee`. `platform` must be `store-gift` when given; `target.packageId` picks an edition (the main one by default); `code` is a promo code.",
      "404: unknown game, or a package that is not the game's. 409: the game cannot be bought now (coming soon, no price) or cannot be gifted to that region. 201 creates an intent that waits for payment.",
      "Each edition has a price per region in that region's currency, or is restricted there. 409 `region_restricted` (details `region`): the edition is not sold in the region. 409 `region_price_gap` (details `region`, `currency`, `amount` in the currency's 1/100 units, `convertedAmount` and `storeAmount` in kopecks, `maxGapPercent`): its price there, converted, differs from the store's by more than GIFT_PRICE_GAP either way (exactly the gap is allowed), or the store has no rate for the currency. GET /gifts/games/{appId} shows the same, region by region, as `giftRegionPrices` (for a game not yet released or without a price, every region's `refusal` is `game_not_released` or `game_not_priced`), and each of its `packages` lists the regions that edition cannot be gifted to now, with the reason, as `refusedRegions`.",
      "`attribution` (optional; `utm_source`, `utm_medium`, `utm_campaign`, `utm_content`, `utm_term`, as for gear) is recorded with the intent: an extension beyond the description, which lists it for gear only. The store's own pages send the campaign the shopper last arrived by; partners may send their own.",
      "The invite link names the friend: its code (after /p/) is the account id in hex, each digit written as a letter of `bcdfghjkmnpqrtvw` (a dash may sit between; capitals are read as the same letters, and the intent keeps the code in lower case), and SteamID64 = 76561197960265728 + that id. The store decodes it offline: a link whose code names no account is 400 `invite_link_undecodable`, and the 201 (an extension) and GET /intents/{intentId} (`gift.recipientSteamId64`) carry the friend's account, so a wrong link shows before anyone pays.",
    ],
  },
  {
    title: "Quotes: the price before the intent",
    body: [
      "POST /gifts/quote (scope `gifts:verify`) and POST /gear/quote (scope `gear:create`) take the body of POST /gifts/verify and POST /gear and answer 200 with what that request would be charged and every reason it would be refused now, creating nothing and holding nothing: no intent, no promo-code use, no unit of stock. They run the same checks and the same pricing as the creating endpoints, so `intentAmount`, `discountAmount`, `feeAmount` and `paymentAmount` are exactly what the intent would record.",
      "The recipient may be left out: a quote does not need `target.inviteUrl`, `target.region`, `email` or `account` (a checkout asks for the price before the shopper has typed them), but checks them as the creating endpoint does when they are sent. With an invite link, POST /gifts/quote answers the friend it names as `recipient`, as verify does; a link whose code names no account is listed as `invite_link_undecodable` among the refusals (verify answers it with a 400), and `recipient` is null.",
      "`refusals` lists every reason at once, each `{reason, param, message}` as the creating endpoint's error would name it: a wrong promo code and an out-of-stock item together, or a region the game cannot go to (`region_not_giftable`, `region_restricted`, `region_price_gap`, as verify judges them) and a code for another game. `purchasable` is true when the list is empty. A promo code that is refused is not applied: the amounts are then those without it. A game without a price answers `intentAmount` and `paymentAmount` null with `game_not_priced` among the refusals.",
      "Only what leaves nothing to price is an error status: an unknown game, edition, platform or item (404), and a malformed body (400), as on the creating endpoints. Open-holds caps (`hold_limit_reached`, `promo_code_held`) are judged when the intent is created, not in a quote.",
      "A quote with a wrong code counts as a promo-code guess against the same limit as the creating endpoints (RATE_LIMIT_PROMO), so quoting is no way around it; a right code, or a used-up one, gives its guess back.",
    ],
  },
  {
    title: "Gear and stock",
    body: [
      "POST /gear needs `account` (a SteamID64 of an individual account), `platform` (the game's appId), `item` and `email`. `additionalFields.tradeLink`, when given, must be https://steamcommunity.com/tradeoffer/new/?partner=<account id>&token=<8 characters> and its partner must be the same account (SteamID64 = 76561197960265728 + partner).",
      "Creating the intent reserves one unit. A reservation holds stock while its intent is unpaid and unexpired (INTENT_TTL_SECONDS, 15 minutes by default); an expired reservation frees its unit by itself. Concurrent requests never reserve more units than the stock (the database itself refuses it): the last ones get 409. Unknown platform or item: 404.",
      "Open holds are capped for every token, so nobody can take an item's last units or a code's last uses without paying: an unpaid, unexpired intent that holds a gear unit or a promo-code use counts against its owner. A partner's tokens together may hold HOLD_LIMIT_PER_PARTNER (1,000) such intents, or the cap the store set for that partner; any other account (its self-service tokens and its sessions on the store's own pages together) HOLD_LIMIT_PER_ACCOUNT (5), at most one of them with any one promo code, and HOLD_LIMIT_PER_ADDRESS (10) per client address. Past a cap the answer is 409 `hold_limit_reached` (with `details.scope` and `details.max`) or `promo_code_held`; paying, declining or waiting for an intent to expire frees its place.",
      "`successUrl`, `failureUrl` and `callbackUrl` must be absolute https:// URLs (http:// only for localhost, for development); anything else, such as `javascript:`, is 400.",
    ],
  },
  {
    title: "The shopper's mail",
    body: [
      "The store e-mails the shopper at `email`: a receipt when the intent is paid (what was bought, for whom, the price, promo discount, fee and total, and a link to the order), and messages when the order is delivered or refunded. `locale` (optional on POST /gifts/verify and POST /gear, `ru` or `en`, `ru` when absent) is the language they are written in: an extension beyond the description. The store's own pages send the language the shopper is using; anything else is 400.",
    ],
  },
  // Intent lifecycle: states, the payment page, idempotency.
  {
    title: "Intent states",
    body: [
      "Every intent has a `status`. The only moves: `requires_payment` → `paid` → `fulfilled` (delivered), `requires_payment` → `canceled` (the buyer declined) or `expired` (not paid in time), and `paid` or `fulfilled` → `refunded`. Each move records its time (`paidAt`, `fulfilledAt`, `canceledAt`, `expiredAt`, `refundedAt`); the database itself refuses any other move, so `canceled`, `expired` and `refunded` are final.",
      "Beside `status`, as the original service reports them: `paymentStatus` (`pending`, `paid`, `rejected` for declined or expired unpaid, `refunded`) and, once paid, `deliveryStatus` (`created`, `pending`, `retrying`, `delivered`, `failed`), `deliveryId`, `deliveryStep` (`queued`, `taken`, `friend_request_sent`, `gift_sent`, `trade_offer_sent`, `accepted`) and `deliveryFailureReason`. `timeline` lists every change of the state (written by the database itself, so none is ever missing) and of the delivery, oldest first, each with its time and, where there is one, its reason.",
      "GET /intents/{intentId} returns the status, the amounts, what is bought, the attribution, the times and the URLs. A token sees the intents created with any token of the same owner, except that a guest's storefront token sees only its own (see The store's own pages); an id that is malformed, unknown or someone else's is 404, all alike.",
      "An unpaid intent is `expired` the moment `expiresAt` passes (INTENT_TTL_SECONDS after creation, 15 minutes by default): it reads so at once, with `expiredAt` = `expiresAt`, can no longer be paid, and its gear unit is free for others at once. A background sweep records the expiry in the database within SWEEP_INTERVAL_MS (1 minute); what a reader sees does not change when it does.",
      "A promo-code use comes back when the intent is canceled, refunded, or when the sweep records its expiry; a paid intent keeps it.",
      "`callbackUrl` is notified of payments only (`intent.paid`, `data` = the intent as GET /intents/{intentId} returns it). Declines and expiries send nothing, so a receiver can never mistake one for a sale; read them with GET /intents/{intentId}.",
    ],
  },
  {
    title: "Delivery and refunds",
    body: [
      "Payment starts the delivery, in the same transaction: a paid intent always has one. DELIVERY_PROVIDER decides who delivers. `manual` (the default): the order waits in the store's fulfilment queue, one person takes it (two never work one order), sends the gift or the trade offer and marks it sent, delivered, or failed with a reason. `sandbox`: a simulated store bot for demos and tests that sends nothing real; it walks a gift through `friend_request_sent` → `gift_sent` → `accepted` and gear through `trade_offer_sent` → `accepted`, SANDBOX_DELIVERY_DELAY_MS apart.",
      "A delivered order moves the intent to `fulfilled`. An attempt that fails but may succeed later (`friend_request_timeout`, a provider error) is retried on DELIVERY_RETRY_SCHEDULE (30 s, 5 min, 30 min by default) with `deliveryStatus` `retrying`; one that fails for good (`gift_declined`, `invite_link_invalid`, `trade_offer_declined`, `trade_offer_expired`, `inventory_private`), or whose retries are spent, is `failed` and its money goes back at once: the intent moves to `refunded` with `refundReason` `delivery_failed`. Deliveries live in the database and are worked under a lease, so a server that crashes or is killed mid-delivery loses nothing: another worker takes the delivery over.",
      "POST /intents/{intentId}/refund (scope `intents:refund`) gives a paid intent's money back until it is delivered, for the owner of the token that created it (anyone else's id is 404, as for GET), and only while that owner is a partner (otherwise 403 `partner_required`, whatever scopes an older token has). Once the delivery has succeeded (`status` `fulfilled`, `deliveryStatus` `delivered`) the API refuses with 409 `intent_already_delivered`: the recipient has what was bought, and only the store's staff may then give the money back, with a written reason kept in the store's audit log. A refund and a delivery that finish at the same moment never both happen: the first to commit wins and the other is refused. The body is optional: `{\"note\": \"why\"}` goes into the timeline. It accepts an `Idempotency-Key`; a second refund of the same intent is 409 `intent_state_conflict`. A gear unit that was never delivered returns to stock and the promo-code use comes back; a delivery still under way stops (`deliveryFailureReason` `refunded_before_delivery`). The payment provider refunds the whole payment; the sandbox does so at once.",
      "The shopper is e-mailed a receipt when the order is paid, and a message when it is delivered, when delivery failed and the money went back, and when it was refunded, in the language of the page they bought on (`locale`).",
    ],
  },
  {
    title: "Payment page",
    body: [
      "POST /gifts/verify and POST /gear answer with `paymentUrl`: the store's payment page /pay/{intentId}, which shows what is bought, the amount and the time left, with Pay and Decline. It works without JavaScript. Whoever holds the link may pay, as with a hosted checkout session; the id is a random UUID.",
      "After Pay or Decline the buyer is redirected (303) to the intent's `successUrl` or `failureUrl` as given when the intent was created (put your own order reference in it), in its normalised ASCII form (`new URL(url).href`: punycode host, percent-encoded path and query, tabs and line breaks dropped), or to the store's result page /pay/{intentId}/result when there is none. Only those validated URLs are ever used, so the page cannot be made an open redirect. `successUrl`, `failureUrl` and `callbackUrl` are accepted by POST /gifts/verify too.",
      "Pressing Pay again on a paid intent (or Decline on a declined one) lands where the first press did. Paying an expired or declined intent is refused, nothing is charged, and the page says why.",
      "PAYMENT_PROVIDER picks who takes the money. The built-in `sandbox` takes none and marks the page as a test (Тестовый режим / Sandbox); a real provider (YooKassa, Stripe) is one more adapter behind the same page.",
    ],
  },
  {
    title: "Idempotency",
    body: [
      "POST /gifts/verify and POST /gear accept an `Idempotency-Key` header: 1 to 255 printable ASCII characters, a UUID for example (anything else is 400). Keys belong to the token's owner: every token of one owner shares them, except a guest's storefront token, whose keys are its own (see The store's own pages).",
      "For 24 hours, the same key with the same body (compared as JSON, so key order and spacing do not matter) returns the first response again, the same status and body with `Idempotent-Replayed: true`, and creates nothing. The same key with a different body, or on the other endpoint, is 409. Concurrent requests with one key wait for the first and replay it: one intent is created.",
      "Only successful (2xx) responses are kept. A request that fails (400, 404, 409 out of stock, 500) leaves no trace, so a retry with the same key runs again, for example after correcting the body or once stock is back. After 24 hours a key counts as new.",
    ],
  },
  {
    title: "The store's own pages",
    body: [
      "The store's pages call these same endpoints from the browser, with a short-lived token that POST /api/storefront/token issues to same-origin requests only: scopes `catalog:read`, `gifts:verify`, `gear:create` and `intents:read`, valid for STOREFRONT_TOKEN_TTL_SECONDS (30 minutes by default), never listed among an account's tokens.",
      "A signed-in shopper's token belongs to them like any of their tokens: it reads their intents and shares their Idempotency-Keys. A guest's token belongs to the store's one guest owner, which every guest shares, so for it both narrow to the token itself: GET /intents/{intentId} shows only the intents that token created (another guest's is 404, exactly as an unknown id), and its Idempotency-Keys are its own (another guest's request with the same key creates an intent of its own and never replays this one's).",
      "A guest's new token (after its 30 minutes, or in another tab) therefore no longer reads the old token's intents through the API; the payment page /pay/{intentId} still shows an intent to whoever holds its link.",
    ],
  },
  CALLBACKS_GUIDE,
  {
    title: "Errors and limits",
    body: [
      "Every error is `{ code, message, reason }`, plus `param` when one field is at fault. `code` is the HTTP status (the original interface's shape); `reason` is a stable snake_case word from the catalogue below, the one thing a program should branch on; `param` names the request field as the request spells it (`target.region`, `additionalFields.tradeLink`, or the header `Idempotency-Key`); `message` is English for the developer reading it and may be reworded at any time. `reason` and `param` are extensions beyond the description. Validation failures are 400 `invalid_field` with `param`. Bodies must be `application/json` (415), at most 64 KiB (413), and valid JSON objects (400 `invalid_body`); unknown body fields are 400 `unknown_field`, so a misspelt field is never silently ignored.",
      "Each operation below lists the reasons it can answer, by status; the catalogue section lists every reason with its status and the operations that answer it. A new reason may be added in a later version: treat one you do not know by its status.",
      "An unknown path is 404; a wrong method is 405 with `Allow`. Anything unexpected is 500 with a generic message and the request id, which every response also carries in `X-Request-Id` and which the logs record.",
      "Successful creations answer 201 with `code: 201` in the body.",
      "Rate limits are counted in the store's database, so they hold however many servers answer. Each token may make RATE_LIMIT_PER_TOKEN requests (600 by default) per RATE_LIMIT_WINDOW_SECONDS (60). Requests without a valid token (missing, malformed, unknown, expired, revoked) count against the client's address instead, RATE_LIMIT_PER_IP (300) per window, so guessing tokens is limited too. Windows are fixed and aligned to the clock: a quota is whole again when its window ends, so a client may spend up to twice the quota across a window boundary. A window never admits more than its quota, however many servers answer; with several, each server counts ahead in small blocks, so a token may be refused a few requests early: per further server process, at most 1/32 of the quota and never more than 100 requests.",
      "Wrong promo codes are limited more strictly, since a code is worth guessing: after RATE_LIMIT_PROMO (20) promo-code refusals (400 with a `promo_code_…` reason other than `promo_code_used_up`, since a used-up code is a real one) for one token owner within RATE_LIMIT_STRICT_WINDOW_SECONDS (15 minutes), or as many from one client address (every account there together), every request that carries a `code` is 429 until the window ends, the right code included, so a guess can no longer be told from a hit; requests without a code go on. The message says which was used up: the owner's (\"for this token's owner\") or the address's (\"from this address\"); `RateLimit` shows the one nearer its end. The store's own pages count the same way, a guest's browser session standing for its owner.",
      'Every counted response carries the fields of the IETF draft `draft-ietf-httpapi-ratelimit-headers`: `RateLimit-Policy: "token";q=600;w=60` (the policy: its name, quota and window in seconds) and `RateLimit: "token";r=42;t=17` (requests left and seconds until the window ends). A request counted against two policies lists both, comma-separated. Past a limit the answer is 429 with `Retry-After` in seconds and a message that says which limit and when to retry: `{"code": 429, "message": "too many requests: at most 600 requests with this token per 60 s; try again in 17 s", "reason": "rate_limited"}`. Wait that long; retrying sooner is refused again. With several servers `r` is what the answering server knew at most a second ago, so it may be a little above what is left.',
      "Every response carries `X-Request-Id`: the one the request sent when it is 1 to 128 letters, digits, `.`, `_` or `-` (so a gateway's id follows the request through), or a new UUID. Quote it when reporting a problem: the server's log has one line per request under it.",
    ],
  },
];
