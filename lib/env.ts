import { z } from "zod";
import { FEE_MODES } from "@/lib/money";
import { allowCallbackHosts } from "@/lib/schemas/common";
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from "@/lib/webhooks/schedule";

/** The store's image CDN hosts (header images in appdetails responses). */
const DEFAULT_IMAGE_HOSTS =
  "shared.akamai.steamstatic.com,shared.fastly.steamstatic.com,shared.cloudflare.steamstatic.com,cdn.akamai.steamstatic.com,cdn.cloudflare.steamstatic.com";
/** `Name <local@domain>` or `local@domain`, no line breaks (it becomes a header). */
const MAIL_FROM = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;
/** A first try at once, then 6 retries over about 33 hours. */
const DEFAULT_MAIL_RETRY_SCHEDULE = "1m,5m,30m,2h,6h,24h";
const IMAGE_HOST = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/**
 * The one validated view of the process environment. Nothing else reads `process.env`;
 * a bad value stops the process at start-up with a message naming the variable (exit code 1).
 */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** What the app connects as: a role that owns nothing (lib/db/roles.ts). */
  DATABASE_URL: z.string().url().optional(),
  /**
   * The owner, for migrations, the seed and the operator CLIs (which grant DATABASE_URL's role its
   * privileges after migrating); unset, they use DATABASE_URL. The server processes never get it.
   */
  DATABASE_OWNER_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Absolute origin used in links the API hands out (cover images, docs). */
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** Store fee rate r, as a decimal fraction: 0.05 is 5 %. */
  FEE_RATE: z.coerce.number().min(0).max(0.5).default(0.05),
  /**
   * The most a game's price in a gift region, converted to roubles, may differ from the store's (either
   * way), in percent; beyond it the region is refused (region_price_gap). After changing it, run
   * `npm run db:seed` or an import (or anything that calls refreshGiftability) so the catalog's filter agrees.
   */
  GIFT_PRICE_GAP: z.coerce.number().min(0).max(100).default(10),
  /**
   * How the store's own pages charge the fee on gifts (partners choose `fee` per request): `included`
   * makes the catalog's price the price paid. Every page shows the one all-in price this gives.
   */
  STOREFRONT_FEE_MODE: z.enum(FEE_MODES).default("included"),
  /** How long an unpaid intent holds its reservation. */
  INTENT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(15 * 60),
  /** Catalog responses are cached per query for this long; 0 turns the cache off. */
  CATALOG_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
  /** Most bytes the catalog cache keeps per process (its pages' size, estimated); the oldest pages go first. */
  CATALOG_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(4 * 1024 ** 3)
    .default(32 * 1024 * 1024),
  /** Most bytes of rendered share cards (/covers/{id}.png) a server process keeps; the oldest go first. */
  COVER_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(4 * 1024 ** 3)
    .default(32 * 1024 * 1024),
  /**
   * Share cards one server process draws at once (each takes 150-800 ms of a core); a request for a
   * card not in the cache beyond this is answered 429 with Retry-After rather than queued.
   */
  COVER_RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * How long a successful token lookup is reused by this process. A revocation made elsewhere
   * (another instance, the CLI) takes effect within this time; 0 looks every request up.
   */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** Connections per server process; concurrent commits share WAL flushes, so writes want more than the cores. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  /**
   * Batches of one kind (intent inserts, verify's and gear's lookups) one server process has at the
   * database at once; requests that arrive meanwhile wait and go together in the next batch
   * (lib/db/coalesce.ts): one round trip and one commit for many. 1 makes the largest batches and
   * the least work per write (docs/benchmarks.md); more trades that for less waiting behind a slow one.
   */
  DB_BATCHES_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Server processes the production start runs behind its one port (a route handler uses about one
   * core, so one per core). Unset: one per core this process may use (`os.availableParallelism()`),
   * which does not see a container's CPU quota: set it there. `npm run dev` always runs one.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  /**
   * Each server process's V8 old-space limit, MiB (`--max-old-space-size`); 0 leaves Node's default,
   * a share of the machine's memory (4 GiB here) that V8 fills with garbage between full collections
   * under load. The live heap is about 55-110 MiB (the catalog cache at most CATALOG_CACHE_MAX_BYTES).
   */
  SERVER_HEAP_MIB: z.coerce.number().int().min(0).max(65_536).default(256),
  /** How long a stopping server waits for requests and callbacks in flight before it kills its processes. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(25_000),
  /** Enables the constant-body route the benchmark measures as the framework's floor. */
  BENCH_FLOOR: z.enum(["0", "1"]).default("0"),
  /** Where the embedded PostgreSQL keeps its data when DATABASE_URL is not set. */
  EMBEDDED_PG_DIR: z.string().default(".data/pg"),
  /**
   * Always this port for the embedded PostgreSQL. Unset: the port its cluster last listened on, and
   * for a new cluster 54329, or any free port when another checkout's cluster has that one.
   */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).optional(),
  /**
   * Signs session cookies (next-auth). At least 32 characters; `npm start` generates one into
   * `.data/auth-secret` when it is not set, so a fresh clone needs no configuration.
   */
  AUTH_SECRET: z.string().min(32, { error: "must be at least 32 characters" }).optional(),
  /**
   * The site's origin as next-auth should see it. Rarely needed: PUBLIC_BASE_URL is used when set,
   * otherwise the forwarded host behind TRUST_PROXY proxies, otherwise http://localhost:PORT (see exportNextAuthEnv).
   */
  NEXTAUTH_URL: z.string().url().optional(),
  /** Lifetime of the short-lived token the server gives a browser session for the store's own pages. */
  STOREFRONT_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(24 * 3600)
    .default(30 * 60),
  /**
   * Delays before each callback retry, comma-separated, each a whole number with `ms`, `s`, `m`, `h`
   * or `d`. The first attempt is immediate; when the attempt after the last delay fails too, the
   * delivery is `failed`.
   */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_RETRY_SCHEDULE)
    .refine((s) => parseRetrySchedule(s) !== null, { error: "must be delays such as 5s,5m,30m,2h (units ms, s, m, h, d)" }),
  /** Per-attempt limits on a callback: total time, and bytes of the receiver's answer read. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_048_576)
    .default(64 * 1024),
  /**
   * Hosts a callback may reach even though they resolve to private or loopback addresses,
   * comma-separated (`127.0.0.1,localhost`): for development and tests only. Empty in production.
   */
  WEBHOOK_ALLOW_HOSTS: z.string().default(""),
  /**
   * The SMTP server outgoing mail goes through: `smtp://user:pass@host:587` (STARTTLS when the
   * server offers it) or `smtps://…:465` (TLS from the start). Unset, messages are kept in the
   * database instead and read in the app (/dev/mail), so a fresh start needs no mail server.
   */
  SMTP_URL: z
    .string()
    .url()
    .refine((u) => /^smtps?:$/.test(new URL(u).protocol), { error: "must be an smtp:// or smtps:// URL" })
    .optional(),
  /** The From of outgoing mail, `Name <address>` or a bare address; default `GiftKey <no-reply@…>` on the store's host. */
  MAIL_FROM: z
    .string()
    .trim()
    .max(320)
    .refine((v) => MAIL_FROM.test(v), { error: "must be an address, optionally with a name: GiftKey <no-reply@example.com>" })
    .optional(),
  /** Delays before each retry of a message the SMTP server did not take, as WEBHOOK_RETRY_SCHEDULE. */
  MAIL_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_MAIL_RETRY_SCHEDULE)
    .refine((s) => parseRetrySchedule(s) !== null, { error: "must be delays such as 1m,5m,30m,2h (units ms, s, m, h, d)" }),
  /** Connection, greeting and idle limit of one SMTP conversation (a claim's lease is twice this plus 5 s). */
  MAIL_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** The background worker (callbacks, mail, expiry sweep) in this process: `0` turns it off. */
  WORKER_ENABLED: z.enum(["0", "1"]).default("1"),
  WORKER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** How often unpaid intents past their time are marked `expired` (stock returns without it). */
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** The payment provider behind `/pay/{intentId}`; `sandbox` is the only built-in one. */
  PAYMENT_PROVIDER: z.enum(["sandbox"]).default("sandbox"),
  /**
   * Who delivers what was paid for (lib/delivery): `manual` (people work the fulfilment queue) or
   * `sandbox` (a simulated store bot for demos and tests: no real gift or item is sent).
   */
  DELIVERY_PROVIDER: z.enum(["manual", "sandbox"]).default("manual"),
  /** The sandbox bot's pause between the steps of a delivery. */
  SANDBOX_DELIVERY_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(2_000),
  /** Waits before each retry of a delivery attempt that failed but may succeed later; then it fails and is refunded. */
  DELIVERY_RETRY_SCHEDULE: z
    .string()
    .default("30s,5m,30m")
    .refine((s) => parseRetrySchedule(s) !== null, { error: "must be delays such as 30s,5m,30m (units ms, s, m, h, d)" }),
  /**
   * Request limits, counted in PostgreSQL so they hold across instances. `off` turns every limit
   * off (benchmarks driving thousands of requests a second from one token).
   */
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /** Requests per window for one /api/v1 token. */
  RATE_LIMIT_PER_TOKEN: z.coerce.number().int().min(1).max(10_000_000).default(600),
  /** Requests per window from one client address without a valid token, and pages' form posts. */
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).max(10_000_000).default(300),
  /** Length of the per-token and per-address window. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Failed sign-ins per window on one account from one address (lib/auth/sign-in-limiter.ts has the whole rule). */
  RATE_LIMIT_SIGNIN: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /** Wrong promo codes per window for one owner (a guest: its browser session), and apart for one client address (lib/services/promo-guesses.ts). */
  RATE_LIMIT_PROMO: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** Confirmation mails one account may ask for again per strict window (a sign-up's first one is not counted). */
  RATE_LIMIT_CONFIRMATION_MAIL: z.coerce.number().int().min(1).max(1_000_000).default(3),
  /** Webhook test events and resends (each a POST to the endpoint's URL at once) per minute to one endpoint, and per hour for one account. */
  RATE_LIMIT_WEBHOOK_SENDS_PER_ENDPOINT: z.coerce.number().int().min(1).max(1_000_000).default(10),
  RATE_LIMIT_WEBHOOK_SENDS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(30),
  /** Requests per window from every guest storefront token of one address together (each token is free to mint). */
  RATE_LIMIT_GUESTS_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /**
   * Open holds (unpaid intents holding a gear unit or a promo-code use) one may have at once
   * (lib/services/holds.ts): a guest's browser session, an account (its storefront sessions and
   * self-service tokens together), a client address, and a partner across its tokens unless an
   * admin set its own cap.
   */
  HOLD_LIMIT_PER_SESSION: z.coerce.number().int().min(1).max(1_000_000).default(3),
  HOLD_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(5),
  HOLD_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(10),
  HOLD_LIMIT_PER_PARTNER: z.coerce.number().int().min(1).max(10_000_000).default(1000),
  /** Length of the sign-in and promo-code windows: long, since guessing is slow work made slower. */
  RATE_LIMIT_STRICT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .default(900),
  /**
   * How many reverse proxies in front of the app append to X-Forwarded-For (0: clients connect
   * directly, the address is the socket's; 1: our nginx, the client is the entry it appended).
   * Also decides whether X-Forwarded-Proto is believed for HSTS.
   */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Hosts pages may load images from over https (the Content Security Policy's img-src), comma-separated;
   * `*.example.com` covers its subdomains. The default is the store's CDN, where imported covers live.
   */
  IMAGE_HOSTS: z
    .string()
    .default(DEFAULT_IMAGE_HOSTS)
    .transform((s) =>
      s
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((hosts) => hosts.every((h) => IMAGE_HOST.test(h)), {
      error: "must be host names separated by commas (shared.akamai.steamstatic.com,*.example.com)",
    }),
  /** pino level for the JSON logs on stdout. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Bearer token for GET /api/metrics (Prometheus); the endpoint is 404 while it is unset. */
  METRICS_TOKEN: z.string().min(16, { error: "must be at least 16 characters" }).optional(),
  /**
   * Distinct campaigns whose visits a day keeps apart (campaign_visits); the visits of every further
   * campaign that day are counted together in one row, so made-up campaign names cannot grow the table.
   */
  CAMPAIGNS_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** Size of the generated demo catalog seeded into an empty database. */
  DEMO_GAMES: z.coerce.number().int().min(10).max(1_000_000).default(3000),
});

export type Env = z.infer<typeof envSchema>;

function loadEnv(): Env {
  // An empty variable (`DATABASE_URL=`) means "not set", as in most tools.
  const given = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== ""));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    // Values are not echoed: DATABASE_URL carries a password.
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    // This runs while modules load, before any caller could catch it: say what is wrong and stop,
    // rather than print a stack trace that says nothing about a mistyped variable.
    console.error(`Invalid configuration (environment variables):\n${lines.join("\n")}`);
    process.exit(1);
  }
  return parsed.data;
}

export const env: Env = loadEnv();

// callbackUrl is refused at creation for exactly the hosts the sender would refuse.
allowCallbackHosts(env.WEBHOOK_ALLOW_HOSTS.split(","));

/**
 * next-auth v4 reads its own origin from `process.env` rather than from its options: NEXTAUTH_URL,
 * or, with AUTH_TRUST_HOST, the request's X-Forwarded-Host (else Host), which any client can write.
 * So, as lib/http/public-origin.ts decides for the store's links: PUBLIC_BASE_URL when set; the
 * forwarded host only behind TRUST_PROXY proxies; otherwise http://localhost:PORT.
 */
export function exportNextAuthEnv(): void {
  if (env.NEXTAUTH_URL) return;
  if (env.PUBLIC_BASE_URL) process.env.NEXTAUTH_URL = env.PUBLIC_BASE_URL;
  else if (env.TRUST_PROXY > 0) process.env.AUTH_TRUST_HOST ??= "true";
  else process.env.NEXTAUTH_URL = `http://localhost:${env.PORT}`;
}
