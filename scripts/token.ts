// Operator CLI for API tokens: create (prints the token alone as the last line), list, revoke.
import { parseArgs } from "node:util";
import { API_SCOPES, PARTNER_ONLY_SCOPES, apiScopeSchema, type ApiScope } from "@/lib/schemas/tokens";
import { isDomainError } from "@/lib/errors";
import { CLI_ACTOR } from "@/lib/services/audit";
import { isPartner, makePartner } from "@/lib/services/partners";
import { createApiToken, ensureUser, listApiTokens, revokeApiToken } from "@/lib/services/tokens";
import { UsageError, runCli, withDatabase } from "./lib/cli";

const USAGE = `Usage:
  npm run --silent token:create -- --name NAME [--scopes ${API_SCOPES.join(",")}] [--expires-in 30d] [--owner EMAIL] [--partner]
  npm run token:list -- [--owner EMAIL] [--json]
  npm run token:revoke -- ID_OR_PREFIX

--scopes      comma-separated; when omitted, every scope the owner may hold (${PARTNER_ONLY_SCOPES.join(", ")} for partners only)
--expires-in  a number with s, m, h, d or w (90d); no expiry when omitted
--owner       the account the token belongs to, made when missing (default: operator@localhost, the store's own
              account, which is always a partner)
--partner     make the owner a partner first (audited as cli), as an admin does on /admin/partners`;

const DEFAULT_OWNER = "operator@localhost";
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

function parseExpiresIn(value: string, now = Date.now()): Date {
  const match = /^(\d{1,6})([smhdw])$/.exec(value.trim());
  if (!match) throw new UsageError(`--expires-in must be a number with s, m, h, d or w, such as 30d (got "${value}")`);
  return new Date(now + Number(match[1]) * UNIT_SECONDS[match[2]!]! * 1000);
}

function parseScopes(value: string | undefined): ApiScope[] | undefined {
  if (value === undefined) return undefined;
  const scopes = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (scopes.length === 0) throw new UsageError("--scopes must name at least one scope");
  return scopes.map((s) => {
    const parsed = apiScopeSchema.safeParse(s);
    if (!parsed.success) throw new UsageError(`unknown scope "${s}"; scopes are: ${API_SCOPES.join(", ")}`);
    return parsed.data;
  });
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      scopes: { type: "string" },
      "expires-in": { type: "string" },
      owner: { type: "string" },
      partner: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  if (!["create", "list", "revoke"].includes(command)) throw new UsageError(`unknown command "${command}"`);
  // Validate everything before touching the database.
  const asked = command === "create" ? parseScopes(values.scopes) : [];
  const expiresAt = values["expires-in"] ? parseExpiresIn(values["expires-in"]) : null;
  const name = values.name?.trim();
  if (command === "create" && (!name || name.length > 100)) throw new UsageError("--name is required (1 to 100 characters)");
  if (command === "revoke" && positionals.length !== 1) throw new UsageError("revoke takes one token id or prefix");

  await withDatabase(async (db) => {
    if (command === "create") {
      const owner = values.owner ?? DEFAULT_OWNER;
      const userId = await ensureUser(db, owner);
      // The store's own account refunds through the API; any other is a partner only when told so.
      if (values.partner || owner.toLowerCase() === DEFAULT_OWNER) {
        const made = await makePartner(db, CLI_ACTOR, owner).catch((err: unknown) => {
          if (isDomainError(err)) throw new UsageError(`${owner} cannot be a partner (${err.reason})`);
          throw err;
        });
        if (made.made) console.error(`Made ${owner} a partner.`);
      }
      const partner = await isPartner(db, userId);
      const refused = partner ? [] : (asked ?? []).filter((s) => PARTNER_ONLY_SCOPES.includes(s));
      if (refused.length > 0)
        throw new UsageError(
          `${owner} is not a partner, so its tokens may not have ${refused.join(", ")}; ` +
            "make it one with --partner (or on /admin/partners), or leave the scope out",
        );
      const scopes = asked ?? API_SCOPES.filter((s) => partner || !PARTNER_ONLY_SCOPES.includes(s));
      if (!partner && !asked) console.error(`${owner} is not a partner: the token gets every scope but ${PARTNER_ONLY_SCOPES.join(", ")}.`);
      const created = await createApiToken(db, { userId, name: name!, scopes, expiresAt });
      console.error(
        `Created token "${created.name}" (${created.id}) with scopes ${created.scopes.join(", ")}` +
          `${created.expiresAt ? `, expiring ${created.expiresAt.toISOString()}` : ", no expiry"}.\n` +
          "It is shown only now; store it somewhere safe.",
      );
      console.log(created.token);
    } else if (command === "list") {
      const owner = values.owner;
      const rows = await listApiTokens(db);
      const shown = owner ? rows.filter((r) => r.owner.toLowerCase() === owner.toLowerCase()) : rows;
      if (values.json) {
        console.log(JSON.stringify(shown, null, 2));
      } else if (shown.length === 0) {
        console.log("No tokens.");
      } else {
        console.table(
          shown.map((r) => ({
            id: r.id,
            prefix: r.prefix,
            name: r.name,
            owner: r.owner,
            scopes: r.scopes.join(","),
            created: r.createdAt.toISOString(),
            "last used": r.lastUsedAt?.toISOString() ?? "never",
            expires: r.expiresAt?.toISOString() ?? "never",
            state: r.revokedAt ? "revoked" : r.expiresAt && r.expiresAt <= new Date() ? "expired" : "active",
          })),
        );
      }
    } else {
      const revoked = await revokeApiToken(db, positionals[0]!);
      if (revoked === 0) throw new UsageError(`no active token matches "${positionals[0]}"`);
      console.log(`Revoked token ${positionals[0]}.`);
    }
  });
}

runCli("token", () => main(process.argv.slice(2)), `\n${USAGE}`);
