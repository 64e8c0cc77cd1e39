import "server-only";
import { authSecret } from "@/lib/auth/secret";
import { log } from "@/lib/log";

/**
 * What a server checks before it takes requests, so a misconfiguration stops it at start with
 * the reason rather than failing a shopper later. (lib/env.ts has already validated every variable.)
 */
export function checkStartupConfiguration(): void {
  try {
    authSecret();
  } catch (err) {
    log.fatal({ area: "startup" }, `Cannot start: ${(err as Error).message}`);
    log.flush();
    process.exit(1);
  }
}
