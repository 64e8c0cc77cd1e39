import { createDb, createPool } from "@/lib/db/client";
import { API_SCOPES } from "@/lib/schemas/tokens";
import { createApiToken, ensureUser } from "@/lib/services/tokens";
const pool = createPool(process.env.Q_DB!, 1);
const db = createDb(pool);
const userId = await ensureUser(db, "one@example.com", "one");
console.log((await createApiToken(db, { userId, name: `one ${Date.now()}`, scopes: [...API_SCOPES] })).token);
await pool.end();
