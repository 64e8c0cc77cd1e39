import "server-only";
import pino, { type DestinationStream, type Logger } from "pino";
import { env } from "@/lib/env";

export type { Logger };

/** Whole bearer tokens wherever they appear in text: messages, stacks, URLs. */
const TOKEN_PATTERN = /gk_live_[A-Za-z0-9]{4}[A-Za-z0-9]{39}/g;
/** Keys whose values never reach a log, at any depth (compared lower-cased): secrets, and a buyer's personal data. */
const SECRET_KEYS = new Set([
  "authorization",
  "cookie",
  "set-cookie",
  "password",
  "token",
  "secret",
  "webhooksecret",
  "apikey",
  "x-api-key",
  "email",
  "inviteurl",
  "tradelink",
  "params",
]);
const REDACTED = "[redacted]";

/**
 * Personal data by pattern, wherever text carries it: e-mail addresses, the secret part of gift
 * invite links and trade links, the params line of the ORM's "Failed query" message (the SQL stays:
 * it is ours and says what failed), and the values PostgreSQL quotes back in its errors.
 */
const TEXT_RULES: [RegExp, string][] = [
  [/(Failed query: [\s\S]*?\nparams: )[^\n]*/g, `$1${REDACTED}`],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, "[email]"],
  [/(s\.team\/p\/)[A-Za-z0-9/-]+/g, `$1${REDACTED}`],
  [/(tradeoffer\/new\/?\?)[^\s"']*/g, `$1${REDACTED}`],
  [/(\)=\()[^\n]*?(\) (already exists|is not present|conflicts with))/g, `$1${REDACTED}$2`],
  [/(Failing row contains \()[^\n]*\)/g, `$1${REDACTED})`],
  [/(invalid input (syntax|value) for (type |enum )?[\w ]+: )"[^\n]*"/g, `$1"${REDACTED}"`],
];

/** A token keeps its recognisable prefix and first 4 characters: enough to tell tokens apart, useless to replay. */
export function scrubText(text: string): string {
  let out = text.replace(TOKEN_PATTERN, (token) => `${token.slice(0, 12)}…[redacted]`);
  for (const [pattern, replacement] of TEXT_RULES) out = out.replace(pattern, replacement);
  return out;
}

/**
 * pino's error serializer, but a failed query (drizzle's DrizzleQueryError: `query`, `params` and a
 * message and stack that repeat both) keeps its SQL and loses its params, however they print.
 */
function serializeError(err: Error): Record<string, unknown> {
  const out = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  const params = (err as { params?: unknown }).params;
  if (typeof (err as { query?: unknown }).query === "string" && Array.isArray(params)) {
    const printed = `\nparams: ${String(params)}`;
    for (const key of ["message", "stack"] as const) {
      if (typeof out[key] === "string") out[key] = (out[key] as string).replace(printed, `\nparams: ${REDACTED}`);
    }
    delete out.params;
  }
  return out;
}

/**
 * A request line's client-controlled strings (its route, address, token name) repeat from request to
 * request: short ones keep their scrubbed form, so the patterns run once per distinct string.
 */
const scrubbedShort = new Map<string, string>();
const SCRUB_MEMO_MAX_ENTRIES = 1000;
const SCRUB_MEMO_MAX_LENGTH = 200;

function scrubShort(text: string): string {
  if (text.length > SCRUB_MEMO_MAX_LENGTH) return scrubText(text);
  let out = scrubbedShort.get(text);
  if (out === undefined) {
    out = scrubText(text);
    if (scrubbedShort.size >= SCRUB_MEMO_MAX_ENTRIES) scrubbedShort.delete(scrubbedShort.keys().next().value!);
    scrubbedShort.set(text, out);
  }
  return out;
}

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubShort(value);
  if (value === null || typeof value !== "object" || depth > 8) return value;
  // Formatters run before serializers: an Error becomes its type, message and stack here.
  if (value instanceof Error) return scrub(serializeError(value), depth + 1);
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : scrub(inner, depth + 1);
  }
  return out;
}

/**
 * JSON lines on stdout (or `destination`, for tests): `level` as a name, `time` as ISO, every
 * object scrubbed of secrets by key (authorization, cookies, passwords, tokens) and every string
 * of whole bearer tokens by pattern, so a careless `log.info({ headers })` cannot leak one.
 */
export function createLogger(destination?: DestinationStream, level: string = env.LOG_LEVEL): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => scrub(object) as Record<string, unknown>,
      },
      // Errors are serialized (and scrubbed) by the log formatter above; pino's own would see a plain object.
      serializers: { err: (value: unknown) => value },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((a) => (typeof a === "string" ? scrubText(a) : a)) as Parameters<typeof method>);
        },
      },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/**
 * The per-request line's logger: the same format, without the deep scrub of every field (most of a
 * cached read's logging cost), since `logRequestLine` scrubs the few fields that can carry text.
 * Give it the main logger's destination, so both write through one buffer.
 */
export function createRequestLogger(destination: DestinationStream, level: string = env.LOG_LEVEL): Logger {
  return pino(
    { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } },
    destination,
  );
}

export interface RequestLine {
  requestId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  ip?: string;
  /** A token's id and display name; never the token. */
  tokenId?: string;
  tokenName?: string;
  reason?: string;
  [extra: string]: unknown;
}

/**
 * Fields whose values are the server's own (a method Node accepted, numbers, an id from the
 * database, a catalogue word) or checked before they get here (a request id: requestIdOf).
 */
const TRUSTED_REQUEST_FIELDS = new Set(["requestId", "method", "status", "ms", "tokenId", "reason"]);

/** Writes one request line through `logger` (a request logger), scrubbing whatever a client could have put text into. */
export function logRequestLine(logger: Logger, level: "debug" | "info", fields: RequestLine, msg: string): void {
  if (!logger.isLevelEnabled(level)) return;
  const line: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    line[key] = TRUSTED_REQUEST_FIELDS.has(key) ? value : SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : scrub(value);
  }
  logger[level](line, msg);
}

// One logger per process, however many route bundles import this module, writing through one buffer.
const processWide = globalThis as unknown as { gkLogger?: Logger; gkRequestLogger?: Logger; gkLogDestination?: DestinationStream };
const processDestination = (processWide.gkLogDestination ??= bufferedDestination(1));

/**
 * Writes to a file descriptor (the process's stdout) in blocks of at least 4 KiB (one write call
 * per line was most of logging's cost under load) and at least every 100 ms, so an idle server's
 * lines still show at once; pino flushes what is left when the process exits. A process killed
 * outright loses at most those 100 ms.
 *
 * Lines go in as bytes: given text, sonic-boom measures the UTF-8 length of all the text it holds
 * on every line (a copy of up to 16 KiB per line under load, about a tenth of a cached catalog
 * request's cost in the server's own code); given bytes, it adds their lengths up. Its own
 * `periodicFlush` adds no listener per flush (a `flush(callback)` on a timer added one every 100 ms
 * while writes kept it busy). `end` writes what is left, stops the timer and closes the descriptor.
 */
export function bufferedDestination(fd: number): EndableDestination {
  const stream = pino.destination({ dest: fd, sync: false, minLength: 4096, periodicFlush: 100, contentMode: "buffer" });
  // pino writes text; `stream.write` is looked up on each line, since pino stubs it out after EPIPE.
  return {
    write: (line: string) => stream.write(Buffer.from(line) as unknown as string), // (its types know only text)
    flush: (done?: (err?: Error) => void) => stream.flush(done),
    end: (done: () => void) => {
      stream.once("close", done);
      stream.end();
    },
  } as EndableDestination;
}

type EndableDestination = DestinationStream & { end(done: () => void): void };

/** The process's logger; `log.child({ area: "worker" })` tags a subsystem. */
export const log: Logger = (processWide.gkLogger ??= createLogger(processDestination));

/** The process's request-line logger (`logRequestLine`). */
export const requestLog: Logger = (processWide.gkRequestLogger ??= createRequestLogger(processDestination));

/** The error as pino's `err` field expects, for values thrown that are not Errors. */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
