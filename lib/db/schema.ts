import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { STAFF_ROLES, type StaffRole } from "../admin/permissions";
import { LOCALES } from "../i18n/config";
import { DELIVERY_FAILURES, DELIVERY_STATUSES, DELIVERY_STEPS, INTENT_STATUSES } from "../intents/states";
import { MAX_PRICE_KOPECKS } from "../money";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../webhooks/events";
import type { Attribution } from "@/lib/schemas/common";
import type { ApiScope } from "@/lib/schemas/tokens";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const games = pgTable(
  "games",
  {
    appId: integer("app_id").primaryKey(),
    slug: text("slug")
      .notNull()
      .generatedAlwaysAs(sql`'store-' || app_id::text`),
    title: text("title").notNull(),
    titleRu: text("title_ru"),
    /** Other names shoppers search by: a Russian or transliterated name, abbreviations (`CS2`). */
    altTitles: text("alt_titles")
      .array()
      .notNull()
      .default(sql`'{}'`),
    shortDescription: text("short_description").notNull(),
    shortDescriptionEn: text("short_description_en"),
    headerImage: text("header_image"),
    genres: text("genres")
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** Lower-cased `genres`, for the case-insensitive filter; written with `genres` by upsertGame. */
    genreKeys: text("genre_keys")
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** Curated lists; `specials` and `coming_soon` are derived from prices and `comingSoon`. */
    featured: text("featured")
      .array()
      .notNull()
      .default(sql`'{}'`),
    comingSoon: boolean("coming_soon").notNull().default(false),
    /** Hidden from the store by staff (/admin/catalog): not listed, not sold; partners' old intents stay. */
    hidden: boolean("hidden").notNull().default(false),
    releaseDate: date("release_date"),
    /** Store popularity order: the catalog's default sort. */
    sortRank: integer("sort_rank").notNull(),
    /**
     * 0 for a game one can buy now, 1 for one that cannot yet (not released, or no price and not free
     * to play): every catalog order puts tier 1 last. Derived from the game and its main edition by
     * refreshCatalogCounts (lib/services/catalog-write.ts), so the default order stays an index walk.
     */
    sortTier: smallint("sort_tier").notNull().default(0),
    giftRegions: text("gift_regions")
      .array()
      .notNull()
      .default(sql`'{}'`),
    search: tsvector("search")
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('simple', game_search_names(title, title_ru, alt_titles)), 'A')
          || setweight(to_tsvector('english', title), 'A')
          || setweight(to_tsvector('russian', game_search_names(title_ru, NULL, alt_titles)), 'A')
          || setweight(to_tsvector('simple', short_description || ' ' || coalesce(short_description_en, '')), 'B')
          || setweight(to_tsvector('russian', short_description), 'B')
          || setweight(to_tsvector('english', coalesce(short_description_en, '')), 'B')`,
      ),
    /** Every name of the game in one string spelt in Latin, for the trigram (typo-tolerant) match. */
    searchNames: text("search_names")
      .notNull()
      .generatedAlwaysAs(sql`search_latin(game_search_names(title, title_ru, alt_titles))`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("games_slug_key").on(t.slug),
    index("games_sort_idx").on(t.sortRank, t.appId),
    index("games_tier_sort_idx").on(t.sortTier, t.sortRank, t.appId),
    index("games_genre_keys_idx").using("gin", t.genreKeys),
    index("games_featured_idx").using("gin", t.featured),
    index("games_search_idx").using("gin", t.search),
    index("games_search_names_trgm_idx").using("gin", t.searchNames.op("gin_trgm_ops")),
    // The back office's order list finds a game by part of its title (ILIKE '%...%') among 100,000.
    index("games_title_trgm_idx").using("gin", t.title.op("gin_trgm_ops")),
    index("games_title_ru_trgm_idx").using("gin", t.titleRu.op("gin_trgm_ops")),
    index("games_coming_soon_idx")
      .on(t.sortRank, t.appId)
      .where(sql`coming_soon`),
    check("games_app_id_positive", sql`${t.appId} > 0`),
    check("games_featured_known", sql`${t.featured} <@ ARRAY['top_sellers', 'new_releases']::text[]`),
    // Served as-is in <img> and og:image: a javascript: or data: URL must never be stored.
    check("games_header_image_https", sql`${t.headerImage} IS NULL OR ${t.headerImage} LIKE 'https://%'`),
  ],
);

export const packages = pgTable(
  "packages",
  {
    packageId: integer("package_id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => games.appId, { onDelete: "cascade" }),
    title: text("title").notNull(),
    /** The edition the catalog shows and a gift gets when no packageId is given. */
    isMain: boolean("is_main").notNull().default(false),
    position: smallint("position").notNull().default(0),
    priceInitial: integer("price_initial"),
    priceFinal: integer("price_final"),
    discountPercent: smallint("discount_percent").notNull().default(0),
  },
  (t) => [
    uniqueIndex("packages_one_main_per_game")
      .on(t.appId)
      .where(sql`is_main`),
    index("packages_app_idx").on(t.appId, t.position),
    index("packages_discounted_idx")
      .on(t.appId)
      .where(sql`is_main AND discount_percent > 0`),
    check(
      "packages_price_consistent",
      sql`(${t.priceFinal} IS NULL AND ${t.priceInitial} IS NULL AND ${t.discountPercent} = 0)
        OR (${t.priceFinal} > 0 AND ${t.priceInitial} >= ${t.priceFinal}
            AND ${t.discountPercent} BETWEEN 0 AND 99
            AND (${t.discountPercent} = 0) = (${t.priceInitial} = ${t.priceFinal}))`,
    ),
    // Every amount derived from a price (fee on top, the naive fee) then fits an integer column.
    check("packages_price_bounded", sql`${t.priceInitial} <= ${sql.raw(String(MAX_PRICE_KOPECKS))}`),
  ],
);

/**
 * A package's price in one gift region, in that region's currency (minor units, 1/100), or its
 * restriction there. A region with no row has no regional data: only `games.gift_regions` decides.
 */
export const packageRegionPrices = pgTable(
  "package_region_prices",
  {
    packageId: integer("package_id")
      .notNull()
      .references(() => packages.packageId, { onDelete: "cascade" }),
    region: text("region").notNull(),
    currency: text("currency").notNull(),
    /** Minor units of `currency`; null only when the package is restricted there. */
    amount: integer("amount"),
    /** The package may not be gifted to the region. */
    restricted: boolean("restricted").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.packageId, t.region] }),
    check("package_region_prices_region_code", sql`${t.region} ~ '^[A-Z]{2}$'`),
    check("package_region_prices_currency_code", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("package_region_prices_priced_unless_restricted", sql`${t.restricted} OR ${t.amount} > 0`),
  ],
);

/** How many roubles one unit of a currency is worth, from a given day; the latest day's rate applies. */
export const currencyRates = pgTable(
  "currency_rates",
  {
    currency: text("currency").notNull(),
    asOf: date("as_of").notNull(),
    /** Roubles per unit in millionths (integer, so the price-gap check is exact in SQL and in TypeScript). */
    rubMicrosPerUnit: bigint("rub_micros_per_unit", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.currency, t.asOf] }),
    check("currency_rates_currency_code", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("currency_rates_positive", sql`${t.rubMicrosPerUnit} > 0`),
  ],
);

/**
 * Which games can be gifted to which region now (lib/catalog/availability.ts's rule for the main
 * edition), precomputed by refreshGiftability so `giftableTo` is an indexed join. `sort_rank`
 * is the game's, copied so one region's games come out of the index in catalog order. Derived
 * data, so no foreign key: every reader joins games, and each refresh drops rows of games gone
 * (checking one per row locked every game row it named: a million of them at a million games).
 */
export const giftableGames = pgTable(
  "giftable_games",
  {
    region: text("region").notNull(),
    appId: integer("app_id").notNull(),
    sortRank: integer("sort_rank").notNull(),
  },
  (t) => [primaryKey({ columns: [t.region, t.appId] }), index("giftable_games_region_sort_idx").on(t.region, t.sortRank, t.appId)],
);

export const gearItems = pgTable(
  "gear_items",
  {
    id: serial("id").primaryKey(),
    platformAppId: integer("platform_app_id")
      .notNull()
      .references(() => games.appId),
    item: text("item").notNull(),
    title: text("title").notNull(),
    price: integer("price").notNull(),
    /** Units on hand; a live reservation (unpaid, unexpired gear intent) holds one of them. */
    stock: integer("stock").notNull(),
  },
  (t) => [
    uniqueIndex("gear_items_platform_item_key").on(t.platformAppId, t.item),
    check("gear_items_price_positive", sql`${t.price} > 0`),
    check("gear_items_price_bounded", sql`${t.price} <= ${sql.raw(String(MAX_PRICE_KOPECKS))}`),
    check("gear_items_stock_not_negative", sql`${t.stock} >= 0`),
  ],
);

export const promoCodes = pgTable(
  "promo_codes",
  {
    id: serial("id").primaryKey(),
    /** Stored upper-case; codes are matched case-insensitively. */
    code: text("code").notNull(),
    kind: text("kind", { enum: ["percent", "fixed"] }).notNull(),
    /** Percent (1..100) or kopecks off. */
    value: integer("value").notNull(),
    appliesTo: text("applies_to", { enum: ["all", "gifts", "gear"] })
      .notNull()
      .default("all"),
    /** Games (gifts) or platforms (gear) the code is limited to; null is every one. */
    appIds: integer("app_ids").array(),
    validFrom: timestamp("valid_from", { withTimezone: true }),
    validUntil: timestamp("valid_until", { withTimezone: true }),
    maxUses: integer("max_uses"),
    uses: integer("uses").notNull().default(0),
    /** Switched off by staff: judged as unknown from then on; its past uses stay counted. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("promo_codes_code_key").on(t.code),
    check("promo_codes_code_upper", sql`${t.code} = upper(${t.code}) AND length(${t.code}) BETWEEN 1 AND 64`),
    check(
      "promo_codes_value_range",
      sql`(${t.kind} = 'percent' AND ${t.value} BETWEEN 1 AND 100) OR (${t.kind} = 'fixed' AND ${t.value} > 0)`,
    ),
    check("promo_codes_uses_within_limit", sql`${t.uses} >= 0 AND (${t.maxUses} IS NULL OR ${t.uses} <= ${t.maxUses})`),
  ],
);

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    name: text("name"),
    /** scrypt hash in the form `scrypt$N$r$p$salt$hash` (base64url parts); null for system users. */
    passwordHash: text("password_hash"),
    /**
     * Standard Webhooks signing secret (`whsec_` + base64 of 32 random bytes) for this owner's
     * callbacks; created on first need and shown on the account page.
     */
    webhookSecret: text("webhook_secret"),
    /**
     * Put in the session (JWT) at sign-in and compared on every session read: sign-out and a
     * password change add one, which ends every session issued before.
     */
    sessionVersion: integer("session_version").notNull().default(0),
    /**
     * When the owner proved the mailbox (the link in the confirmation mail), or the staff command
     * made the account; null until then, and again when the address changes (a trigger). A staff
     * role counts only once this is set, and guest orders placed with the address show only then.
     */
    emailConfirmedAt: timestamp("email_confirmed_at", { withTimezone: true }),
    /** The language of the account's own mail (the confirmation): the page's at sign-up. */
    locale: text("locale", { enum: LOCALES }).notNull().default("ru"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(sql`lower(${t.email})`), check("users_locale_known", sql`${t.locale} IN ('ru', 'en')`)],
);

/**
 * A confirmation link sent to an account's address. The link's token is this id and an HMAC of it
 * under AUTH_SECRET (lib/auth/confirmation-link.ts): nothing here, nor in the outbox, is enough to
 * make one. Used once; good until `expires_at`, and only for the address it was sent to.
 */
export const emailConfirmations = pgTable(
  "email_confirmations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    /**
     * Its mail is still to be written: recorded where React Email cannot render (the staff CLI,
     * which runs under the react-server condition), and written by the worker, which sends it anyway.
     */
    mailPending: boolean("mail_pending").notNull().default(false),
  },
  (t) => [
    index("email_confirmations_user_idx").on(t.userId, t.createdAt),
    index("email_confirmations_mail_pending_idx")
      .on(t.createdAt)
      .where(sql`mail_pending`),
    check("email_confirmations_expiry", sql`${t.expiresAt} > ${t.createdAt}`),
  ],
);

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The first characters of the token, safe to show in lists. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole token, hex; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    scopes: text("scopes").array().$type<ApiScope[]>().notNull(),
    /**
     * `api`: made by a person (account page, CLI) for a partner integration. `storefront`: issued
     * by the server to a browser session for the store's own pages, short-lived and never listed.
     */
    purpose: text("purpose", { enum: ["api", "storefront"] })
      .notNull()
      .default("api"),
    /**
     * A signed-in shopper's storefront token: the session version (users.session_version) of the
     * session it was issued to. It works only while the account's version is still this one, so
     * signing out or changing the password ends it with the session, in the same statement.
     */
    sessionVersion: integer("session_version"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("api_tokens_hash_key").on(t.tokenHash),
    index("api_tokens_user_idx").on(t.userId),
    check(
      "api_tokens_scopes_known",
      sql`cardinality(${t.scopes}) > 0 AND ${t.scopes} <@ ARRAY['catalog:read', 'gifts:verify', 'gear:create', 'intents:read', 'intents:refund']::text[]`,
    ),
    check("api_tokens_name_length", sql`length(${t.name}) BETWEEN 1 AND 100`),
    check("api_tokens_purpose_known", sql`${t.purpose} IN ('api', 'storefront')`),
    check("api_tokens_session_storefront_only", sql`${t.sessionVersion} IS NULL OR ${t.purpose} = 'storefront'`),
  ],
);

export { INTENT_STATUSES };

export const intents = pgTable(
  "intents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["gift", "gear"] }).notNull(),
    status: text("status", { enum: INTENT_STATUSES }).notNull().default("requires_payment"),
    tokenId: uuid("token_id")
      .notNull()
      .references(() => apiTokens.id),
    appId: integer("app_id")
      .notNull()
      .references(() => games.appId),
    packageId: integer("package_id").references(() => packages.packageId),
    gearItemId: integer("gear_item_id").references(() => gearItems.id),
    giftRegion: text("gift_region"),
    inviteUrl: text("invite_url"),
    /** The friend's SteamID64, decoded from the invite link's code when the gift was bought. */
    recipientSteamId: text("recipient_steam_id"),
    account: text("account"),
    tradeLink: text("trade_link"),
    storeId: text("store_id"),
    email: text("email").notNull(),
    feeMode: text("fee_mode", { enum: ["included", "excluded", "naive"] }).notNull(),
    promoCodeId: integer("promo_code_id").references(() => promoCodes.id),
    /** Price of what is bought, before promo code and fee. */
    intentAmount: integer("intent_amount").notNull(),
    discountAmount: integer("discount_amount").notNull(),
    feeAmount: integer("fee_amount").notNull(),
    paymentAmount: integer("payment_amount").notNull(),
    currency: text("currency").notNull().default("RUB"),
    attribution: jsonb("attribution").$type<Attribution>(),
    successUrl: text("success_url"),
    failureUrl: text("failure_url"),
    callbackUrl: text("callback_url"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** When each move happened; the transition trigger sets them, nothing else writes them. */
    paidAt: timestamp("paid_at", { withTimezone: true }),
    fulfilledAt: timestamp("fulfilled_at", { withTimezone: true }),
    canceledAt: timestamp("canceled_at", { withTimezone: true }),
    expiredAt: timestamp("expired_at", { withTimezone: true }),
    /** Payment provider that took the payment (`sandbox`), and its own reference for it. */
    paymentProvider: text("payment_provider"),
    providerPaymentId: text("provider_payment_id"),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    /** Why the money went back, in a word (`delivery_failed`, `partner`, `operator`) and who said so. */
    refundReason: text("refund_reason"),
    refundNote: text("refund_note"),
    /** The provider's reference for the refund. */
    providerRefundId: text("provider_refund_id"),
    /**
     * Who made the intent, as far as the open-holds limits need (lib/services/holds.ts): a keyed
     * hash of the client's address, never the address itself. Null for partners' tokens.
     */
    clientKey: text("client_key"),
    /** The shopper's language: what their mail is written in. The store's pages send theirs. */
    locale: text("locale", { enum: LOCALES }).notNull().default("ru"),
  },
  (t) => [
    index("intents_open_holds_client_idx")
      .on(t.clientKey, t.expiresAt)
      .where(sql`status = 'requires_payment' AND client_key IS NOT NULL`),
    index("intents_live_gear_idx")
      .on(t.gearItemId, t.expiresAt)
      .where(sql`status = 'requires_payment'`),
    index("intents_token_idx").on(t.tokenId, t.createdAt),
    // The open holds of a session, an account or a partner (lib/services/holds.ts), by each of its
    // tokens: without it the count walks every intent the token ever made. `token_id IS NOT NULL`
    // (always true: the column is NOT NULL) keeps the index out of every count that does not name
    // the token, such as the stock guard's by item (drizzle/0024), which a planner with stale
    // statistics would otherwise walk it for.
    index("intents_open_holds_token_idx")
      .on(t.tokenId, t.expiresAt)
      .where(sql`status = 'requires_payment' AND token_id IS NOT NULL AND (gear_item_id IS NOT NULL OR promo_code_id IS NOT NULL)`),
    // The back office's order list (lib/services/admin-orders.ts): newest first, and each search and
    // filter that would otherwise read every intent.
    index("intents_created_idx").on(t.createdAt, t.id),
    // The state's rank in the lifecycle (lib/services/admin-orders.ts filters by it), so the list by
    // state, newest first, and the list sorted by state are both walks of this index.
    index("intents_state_created_idx").on(
      sql`array_position(ARRAY['requires_payment', 'paid', 'fulfilled', 'refunded', 'canceled', 'expired']::text[], ${t.status})`,
      t.createdAt,
      t.id,
    ),
    // text_pattern_ops: serves an e-mail's prefix (LIKE 'anna@%') as well as the whole address.
    index("intents_email_idx").on(sql`lower(${t.email}) text_pattern_ops`),
    index("intents_recipient_steam_id_idx")
      .on(t.recipientSteamId)
      .where(sql`recipient_steam_id IS NOT NULL`),
    index("intents_account_idx")
      .on(t.account)
      .where(sql`account IS NOT NULL`),
    index("intents_invite_url_idx")
      .on(t.inviteUrl)
      .where(sql`invite_url IS NOT NULL`),
    // A campaign's or source's orders newest first, from the index alone; unattributed intents (most)
    // are not in them, so the write path without attribution pays nothing for them.
    index("intents_utm_campaign_created_idx")
      .on(sql`(${t.attribution} ->> 'utm_campaign')`, t.createdAt, t.id)
      .where(sql`attribution IS NOT NULL`),
    index("intents_utm_source_created_idx")
      .on(sql`(${t.attribution} ->> 'utm_source')`, t.createdAt, t.id)
      .where(sql`attribution IS NOT NULL`),
    // The list sorted by amount, either way, with the same tie-breaks as every other order.
    index("intents_amount_created_idx").on(t.paymentAmount, t.createdAt, t.id),
    index("intents_app_created_idx").on(t.appId, t.createdAt),
    // The back office's promo-code revenue and gear sold counts, per code and per item.
    index("intents_promo_code_idx")
      .on(t.promoCodeId, t.status)
      .where(sql`promo_code_id IS NOT NULL`),
    index("intents_gear_sold_idx")
      .on(t.gearItemId)
      .where(sql`status IN ('paid', 'fulfilled')`),
    check(
      "intents_kind_shape",
      sql`(${t.kind} = 'gift' AND ${t.packageId} IS NOT NULL AND ${t.gearItemId} IS NULL AND ${t.giftRegion} IS NOT NULL AND ${t.inviteUrl} IS NOT NULL)
        OR (${t.kind} = 'gear' AND ${t.gearItemId} IS NOT NULL AND ${t.packageId} IS NULL AND ${t.account} IS NOT NULL)`,
    ),
    check(
      "intents_amounts",
      sql`${t.intentAmount} > 0 AND ${t.discountAmount} >= 0 AND ${t.discountAmount} < ${t.intentAmount}
        AND ${t.feeAmount} >= 0 AND ${t.paymentAmount} > 0`,
    ),
    check("intents_currency_rub", sql`${t.currency} = 'RUB'`),
    check("intents_locale_known", sql`${t.locale} IN ('ru', 'en')`),
    check("intents_status_known", sql`${t.status} IN ('requires_payment', 'paid', 'fulfilled', 'canceled', 'expired', 'refunded')`),
    check(
      "intents_status_times",
      sql`(${t.paidAt} IS NOT NULL) = (${t.status} IN ('paid', 'fulfilled', 'refunded'))
        AND (${t.fulfilledAt} IS NULL OR ${t.status} IN ('fulfilled', 'refunded'))
        AND (${t.status} <> 'fulfilled' OR ${t.fulfilledAt} IS NOT NULL)
        AND (${t.canceledAt} IS NOT NULL) = (${t.status} = 'canceled')
        AND (${t.expiredAt} IS NOT NULL) = (${t.status} = 'expired')
        AND (${t.refundedAt} IS NOT NULL) = (${t.status} = 'refunded')
        AND (${t.refundedAt} IS NULL OR ${t.refundReason} IS NOT NULL)`,
    ),
    // The sweeper's index (drizzle/0024): `expires_at IS NOT NULL` is always true, and it makes the
    // index fit only queries that bound expires_at, so a count of one item's or one holder's open
    // intents (expiry as a FILTER) never walks every open intent of the store.
    index("intents_unswept_idx")
      .on(t.expiresAt)
      .where(sql`status = 'requires_payment' AND expires_at IS NOT NULL`),
  ],
);

/**
 * One row per (owner, Idempotency-Key), or per (owner, token, key) for a guest's token: the first
 * successful response to a POST, replayed for 24 hours to a retry with the same body. Written in
 * the same transaction as the intent it made.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * Set for a guest's token only: every guest shares one owner, so their keys are kept per token.
     * Null for a real owner's tokens, which share their keys.
     */
    tokenId: uuid("token_id").references(() => apiTokens.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** `POST /api/v1/gear`: a key used on one endpoint cannot be replayed on another. */
    requestRoute: text("request_route").notNull(),
    /** SHA-256 (hex) of the canonical JSON of the request body. */
    requestHash: text("request_hash").notNull(),
    responseStatus: smallint("response_status").notNull(),
    /** The response body exactly as first sent. */
    responseBody: text("response_body").notNull(),
    intentId: uuid("intent_id").references(() => intents.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    // NULLS NOT DISTINCT: a real owner's keys (no token) are unique per owner as before.
    unique("idempotency_keys_owner_token_key").on(t.userId, t.tokenId, t.key).nullsNotDistinct(),
    index("idempotency_keys_expires_idx").on(t.expiresAt),
    check("idempotency_keys_key_shape", sql`length(${t.key}) BETWEEN 1 AND 255`),
  ],
);

/**
 * Getting what was paid for to the recipient, beside the payment: one row per paid intent, made in
 * the payment's transaction (so a paid intent always has one), worked by a provider (lib/delivery)
 * through the worker, leased like the callback outbox so a crashed worker's delivery is taken over.
 * Its id is the `deliveryId` partners see.
 */
export const deliveries = pgTable(
  "deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    intentId: uuid("intent_id")
      .notNull()
      .references(() => intents.id, { onDelete: "cascade" }),
    /** `manual` or `sandbox` (DELIVERY_PROVIDER when the delivery was made). */
    provider: text("provider").notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("created"),
    step: text("step", { enum: DELIVERY_STEPS }).notNull().default("queued"),
    failureReason: text("failure_reason", { enum: DELIVERY_FAILURES }),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /** Manual delivery: the staff member who took it, so two people never work one order. */
    assignedTo: uuid("assigned_to").references(() => users.id),
    assignedAt: timestamp("assigned_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("deliveries_intent_key").on(t.intentId),
    // The order list's delivery-status filter.
    index("deliveries_status_idx").on(t.status, t.intentId),
    index("deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status IN ('created', 'pending', 'retrying')`),
    check("deliveries_status_known", sql`${t.status} IN ('created', 'pending', 'retrying', 'delivered', 'failed')`),
    check("deliveries_failed_has_reason", sql`(${t.status} = 'failed') = (${t.failureReason} IS NOT NULL AND ${t.finishedAt} IS NOT NULL)`),
    check("deliveries_attempts", sql`${t.attemptCount} >= 0`),
  ],
);

/** Each attempt a provider made at a delivery: when, what it reached, and why it stopped if it did. */
export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    id: serial("id").primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }).notNull().defaultNow(),
    /** `progress` (a step reached, more to come), `delivered`, `retry` (failed, tried again later) or `failed` (for good). */
    outcome: text("outcome", { enum: ["progress", "delivered", "retry", "failed"] }).notNull(),
    step: text("step", { enum: DELIVERY_STEPS }),
    failureReason: text("failure_reason", { enum: DELIVERY_FAILURES }),
    /** Who or what: `sandbox`, or a staff member's e-mail for manual steps. */
    actor: text("actor"),
  },
  (t) => [index("delivery_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);

/**
 * An intent's timeline: every change of its state (written by the database's own trigger, so no
 * writer can skip it) and of its delivery, with its time and why. GET /intents/{id} reads it back.
 */
export const intentEvents = pgTable(
  "intent_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    intentId: uuid("intent_id")
      .notNull()
      .references(() => intents.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** `status` (the intent moved: `value` is the new state), `delivery` (`value` is the step or outcome). */
    kind: text("kind", { enum: ["status", "delivery"] }).notNull(),
    value: text("value").notNull(),
    reason: text("reason"),
    actor: text("actor"),
  },
  (t) => [index("intent_events_intent_idx").on(t.intentId, t.id)],
);

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "stopped", "failed"] as const;

/**
 * An owner's own receiver of intent events, beside each intent's `callbackUrl` (which hears of
 * payments only): the events it subscribed to, signed with its own secret.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    eventTypes: text("event_types").array().$type<WebhookEventType[]>().notNull(),
    /** Standard Webhooks secret (`whsec_` + base64 of 32 random bytes); signs this endpoint's deliveries. */
    secret: text("secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_endpoints_user_idx").on(t.userId, t.createdAt),
    check(
      "webhook_endpoints_event_types_known",
      sql`cardinality(${t.eventTypes}) >= 1 AND ${t.eventTypes} <@ ARRAY[${sql.raw(WEBHOOK_EVENT_TYPES.map((e) => `'${e}'`).join(", "))}]::text[]`,
    ),
    check("webhook_endpoints_secret_format", sql`${t.secret} LIKE 'whsec_%'`),
  ],
);

/**
 * The callback outbox. A row is written in the same transaction as the state change it reports,
 * so a committed payment always has its delivery; the worker sends it and records each attempt.
 * `pending` until a 2xx (`delivered`), a 410 (`stopped`) or the last retry fails (`failed`).
 * One event of an intent goes once to its `callbackUrl` (no endpoint) and once to each subscribed
 * endpoint; a test event has no intent; a resend is a new row that keeps the original's message id.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    /** Sent as `webhook-id` (`msg_` + this uuid without dashes, or the original's for a resend); the receiver's dedupe key. */
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null for a test event (`webhook.test`) only. */
    intentId: uuid("intent_id").references(() => intents.id, { onDelete: "cascade" }),
    /** Whose secret signs it when no endpoint does: the owner of the token that created the intent. */
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The registered endpoint it goes to; null for the intent's `callbackUrl`. */
    endpointId: uuid("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The delivery this one sends again (from the account page), with the same body and message id. */
    resendOf: uuid("resend_of").references((): AnyPgColumn => webhookDeliveries.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    url: text("url").notNull(),
    /** The exact JSON body, fixed when the event happens, so every attempt sends the same bytes. */
    body: text("body").notNull(),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** A worker that claims the row leases it until then; another instance skips it meanwhile. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    // One delivery per event of an intent and receiver (the callbackUrl counts as the nil endpoint):
    // a second enqueue of the same event is a bug, refused here. Resends and test events stand apart.
    uniqueIndex("webhook_deliveries_event_key")
      .on(t.intentId, t.eventType, sql`coalesce(endpoint_id, '00000000-0000-0000-0000-000000000000'::uuid)`)
      .where(sql`intent_id IS NOT NULL AND resend_of IS NULL`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    // An order's callbacks in the back office, resends included (the unique key above leaves them out).
    index("webhook_deliveries_intent_idx")
      .on(t.intentId, t.createdAt)
      .where(sql`intent_id IS NOT NULL`),
    check("webhook_deliveries_attempts", sql`${t.attemptCount} >= 0`),
    check("webhook_deliveries_status_known", sql`${t.status} IN ('pending', 'delivered', 'stopped', 'failed')`),
    check("webhook_deliveries_test_has_endpoint", sql`${t.intentId} IS NOT NULL OR ${t.endpointId} IS NOT NULL`),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: serial("id").primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    /** HTTP status of the receiver's answer; null when there was none (refused, timeout, blocked). */
    responseStatus: smallint("response_status"),
    /** Why the attempt failed without a status, in one line. */
    error: text("error"),
  },
  (t) => [uniqueIndex("webhook_attempts_delivery_attempt_key").on(t.deliveryId, t.attempt)],
);

/** Mail about an order (one of each per intent). */
export const INTENT_MAIL_KINDS = ["receipt", "delivered", "delivery_failed_refunded", "refunded"] as const;
/** Mail about the account itself. */
export const ACCOUNT_MAIL_KINDS = ["email_confirmation"] as const;
export const MAIL_KINDS = [...INTENT_MAIL_KINDS, ...ACCOUNT_MAIL_KINDS] as const;
/** `stored`: kept in the database for the app to show, because no SMTP server is configured. */
export const MAIL_MESSAGE_STATUSES = ["pending", "sent", "stored", "failed"] as const;

/**
 * The mail outbox (lib/mail). A row is written, fully rendered, in the transaction of the event it
 * tells about, and the worker sends it later through SMTP, or marks it `stored` without one.
 */
export const mailMessages = pgTable(
  "mail_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The order an order's mail is about; null for mail about the account (`user_id`). */
    intentId: uuid("intent_id").references(() => intents.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: MAIL_KINDS }).notNull(),
    recipient: text("recipient").notNull(),
    locale: text("locale", { enum: LOCALES }).notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    /** The Message-ID header, `<uuid@domain>`, the same on every attempt, so mail clients drop a resent copy. */
    messageId: text("message_id").notNull(),
    status: text("status", { enum: MAIL_MESSAGE_STATUSES }).notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** A worker that claims the row leases it until then; another instance skips it meanwhile. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /** Why the last attempt failed, in one line (the SMTP reply or the connection error). */
    lastError: text("last_error"),
    createdAt: createdAt(),
    /** When the message left the outbox: the SMTP server accepted it (`sent`) or it was kept (`stored`). */
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("mail_messages_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index("mail_messages_created_idx").on(t.createdAt),
    // One message of each kind per intent: enqueueing it again returns the first.
    uniqueIndex("mail_messages_intent_kind_key").on(t.intentId, t.kind),
    uniqueIndex("mail_messages_message_id_key").on(t.messageId),
    check("mail_messages_attempts", sql`${t.attemptCount} >= 0`),
    check("mail_messages_status_known", sql`${t.status} IN ('pending', 'sent', 'stored', 'failed')`),
    check(
      "mail_messages_kind_known",
      sql`${t.kind} IN ('receipt', 'delivered', 'delivery_failed_refunded', 'refunded', 'email_confirmation')`,
    ),
    // An order's mail names its intent; the account's names the account; never both.
    check(
      "mail_messages_subject",
      sql`CASE WHEN ${t.kind} = 'email_confirmation' THEN ${t.intentId} IS NULL AND ${t.userId} IS NOT NULL ELSE ${t.intentId} IS NOT NULL AND ${t.userId} IS NULL END`,
    ),
    check("mail_messages_locale_known", sql`${t.locale} IN ('ru', 'en')`),
    check("mail_messages_sent_time", sql`(${t.sentAt} IS NOT NULL) = (${t.status} IN ('sent', 'stored'))`),
  ],
);

/**
 * Request counters for rate limits, one row per (key, fixed window): `token:<id>`, `ip:<address>`,
 * `signin:<address>`, `signin-email:<hash>`, `promo:<owner>`. Shared by every instance; each
 * request is one upsert. UNLOGGED (set in the migration): counters are worth no WAL flush per
 * request, and losing them in a crash only resets the current windows.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    /** The window's end; the purge job deletes rows past it. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limits_expires_idx").on(t.expiresAt)],
);

/** The people who run the store: one role each (lib/admin/permissions.ts), given by `staff:grant` or an admin. */
export const staffMembers = pgTable(
  "staff_members",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: STAFF_ROLES }).$type<StaffRole>().notNull(),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull().defaultNow(),
    /** Who granted it: a staff member's e-mail, or `cli`. */
    grantedBy: text("granted_by").notNull(),
  },
  (t) => [check("staff_members_role_known", sql`${t.role} IN ('admin', 'operator', 'marketer', 'support')`)],
);

/**
 * Accounts an admin made partners (/admin/partners, or `token:create --partner`): only their tokens
 * may hold `intents:refund`, and their open holds are capped as theirs (lib/services/holds.ts)
 * rather than as a shopper's.
 */
export const partners = pgTable(
  "partners",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    /** Who made it a partner: a staff member's e-mail, or `cli`. */
    createdBy: text("created_by").notNull(),
    /** Its own cap on open holds across all its tokens; null is HOLD_LIMIT_PER_PARTNER. */
    holdCap: integer("hold_cap"),
  },
  (t) => [check("partners_hold_cap_bounded", sql`${t.holdCap} BETWEEN 1 AND 10000000`)],
);

/**
 * How many unpaid intents holding a gear unit or a promo-code use each account (not the storefront's
 * guest owner) has, per 10-second span of their expiry: the open-holds caps of accounts and
 * partners (lib/services/holds.ts) read a partner's open holds from here, a sum of at most
 * INTENT_TTL_SECONDS / 10 rows, instead of counting its intents, which a busy partner has tens of
 * thousands of. Triggers on intents keep it (drizzle/0026); the worker drops spans long past.
 */
export const openHoldCounts = pgTable(
  "open_hold_counts",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The end of the 10-second span the intents expire in: they count while it is in the future. */
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    n: integer("n").notNull(),
  },
  // No index on the span alone: with statistics that predate a burst, a planner could read every
  // account's live spans through it for one account's sum (drizzle/0024); the purge reads the
  // small table whole.
  (t) => [primaryKey({ columns: [t.userId, t.bucket] })],
);

/**
 * Every change made in the back office (and by the staff CLI): who, when, what, and the record
 * before and after. Written in the change's own transaction, so a change without its entry cannot
 * exist; never updated or deleted by the app.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** The staff member's account; null for the CLI. */
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** Their e-mail at the time (kept when the account goes), or `cli`. */
    actor: text("actor").notNull(),
    /** `<area>.<verb>`: `order.refund`, `promo_code.update`, `staff.grant`, ... */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    /** Why, when the person said (a refund's reason). */
    note: text("note"),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at, t.id),
    index("audit_log_target_idx").on(t.targetType, t.targetId, t.id),
    index("audit_log_actor_idx").on(t.actor, t.id),
    check("audit_log_action_shape", sql`${t.action} ~ '^[a-z_]+[.][a-z_]+$'`),
  ],
);

/**
 * Visits that arrived with UTM parameters, counted per day and campaign: no address, no cookie id,
 * nothing about the visitor; joined to intents (which carry their attribution) in the campaign report.
 * An absent parameter is stored as ''.
 */
export const campaignVisits = pgTable(
  "campaign_visits",
  {
    day: date("day").notNull(),
    source: text("source").notNull(),
    medium: text("medium").notNull(),
    campaign: text("campaign").notNull(),
    visits: integer("visits").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.source, t.medium, t.campaign] }), check("campaign_visits_count", sql`${t.visits} >= 0`)],
);

/**
 * The campaign report's figures per store day (Moscow) and campaign: attributed intents made, paid
 * (and the amount) and refunded (and the amount returned), each counted on the day it happened.
 * Triggers on intents keep it in the writing transaction (drizzle/0021), so it is exact at every
 * commit; campaign_daily_rebuild() computes it again from the intents. '' stands for an absent name.
 */
export const campaignDaily = pgTable(
  "campaign_daily",
  {
    day: date("day").notNull(),
    source: text("source").notNull(),
    medium: text("medium").notNull(),
    campaign: text("campaign").notNull(),
    intents: integer("intents").notNull().default(0),
    paid: integer("paid").notNull().default(0),
    /** Kopecks. */
    gross: bigint("gross", { mode: "number" }).notNull().default(0),
    refunds: integer("refunds").notNull().default(0),
    /** Kopecks. */
    refunded: bigint("refunded", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.source, t.medium, t.campaign] })],
);
