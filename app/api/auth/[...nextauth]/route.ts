// GET/POST /api/auth/* - next-auth: CSRF token, e-mail and password sign-in, session, sign-out
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { errorResponse } from "@/lib/api/errors";
import { withRequestContext } from "@/lib/api/request-context";
import { getAuthOptions } from "@/lib/auth/options";
import { AuthConfigError } from "@/lib/auth/secret";
import { log } from "@/lib/log";

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth answers the credentials callback by any method but POST with a 500 of its own.
const POST_ONLY = new Set(["callback/credentials"]);

const handler = withRequestContext(async (request: Request, context: Context): Promise<Response> => {
  const { nextauth } = await context.params;
  if (request.method !== "POST" && POST_ONLY.has(nextauth.join("/"))) {
    return errorResponse("method_not_allowed", { method: request.method, allow: "POST" });
  }
  try {
    return await NextAuth(getAuthOptions())(request as NextRequest, context);
  } catch (err) {
    if (!(err instanceof AuthConfigError)) throw err;
    // The operator's mistake, said plainly in the log; the visitor only learns sign-in is down.
    log.error({ area: "auth", error: err.message }, "sign-in unavailable");
    return errorResponse("service_unavailable", { what: "sign-in is not available: the server is missing its configuration" });
  }
});

export { handler as GET, handler as POST };
