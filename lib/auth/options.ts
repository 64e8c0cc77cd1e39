import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/lib/db/client";
import { env, exportNextAuthEnv } from "@/lib/env";
import { clientAddress } from "@/lib/http/client-ip";
import { log } from "@/lib/log";
import { signInRequestSchema } from "@/lib/schemas/account";
import { verifyUserCredentials } from "@/lib/services/users";
import { authSecret } from "./secret";
import { SIGN_IN_ERRORS } from "./sign-in-errors";
import { limitSignIn } from "./sign-in-limiter";

const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

let options: NextAuthOptions | null = null;

/**
 * next-auth: e-mail and password (Credentials), stateless JWT sessions so any instance can read
 * them, our own sign-in page. Built on first use rather than at import, so a production build
 * without AUTH_SECRET still builds and the missing secret is reported when sign-in is needed.
 */
export function getAuthOptions(): NextAuthOptions {
  if (options) return options;
  exportNextAuthEnv();
  options = {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "E-mail",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const parsed = signInRequestSchema.safeParse(credentials ?? {});
          if (!parsed.success) return null;
          const forwarded = req.headers?.["x-forwarded-for"];
          const address = clientAddress(typeof forwarded === "string" ? forwarded : null, env.TRUST_PROXY);
          const db = getDb();
          const result = await limitSignIn(db, parsed.data.email, address, () => verifyUserCredentials(db, parsed.data));
          // next-auth hands a thrown message to the form as `error`.
          if (!result.ok && result.reason === "too_many") throw new Error(SIGN_IN_ERRORS.tooMany);
          if (!result.ok) return null;
          const user = result.value;
          return { id: user.id, email: user.email, name: user.name };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.email = user.email;
        }
        return token;
      },
      session({ session, token }) {
        session.user = { id: token.sub ?? "", email: token.email ?? null, name: null };
        return session;
      },
    },
    logger: {
      error: (code, metadata) => log.error({ area: "auth", code, error: describe(metadata) }, "next-auth error"),
      warn: (code) => log.warn({ area: "auth", code }, "next-auth warning"),
      debug: () => {},
    },
  };
  return options;
}

function describe(metadata: unknown): string {
  if (metadata instanceof Error) return metadata.message;
  if (metadata && typeof metadata === "object" && "error" in metadata && metadata.error instanceof Error) return metadata.error.message;
  return String(metadata);
}
