import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/lib/db/client";
import { env, exportNextAuthEnv } from "@/lib/env";
import { clientAddress } from "@/lib/http/client-ip";
import { log } from "@/lib/log";
import { signInRequestSchema } from "@/lib/schemas/account";
import { endSessions, getSessionVersion, verifyUserCredentials } from "@/lib/services/users";
import { authSecret } from "./secret";
import { SESSION_ENDED, sessionIsCurrent } from "./session-version";
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
          if (!result.ok && result.reason === "rate_limited") throw new Error(SIGN_IN_ERRORS.tooMany);
          if (!result.ok) return null;
          const user = result.value;
          return { id: user.id, email: user.email, name: user.name };
        },
      }),
    ],
    callbacks: {
      // Runs at sign-in (with `user`) and on every read of the session, API and pages alike.
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.email = user.email;
          token.sv = (await getSessionVersion(getDb(), user.id)) ?? 0;
          return token;
        }
        let current: boolean;
        try {
          current = await sessionIsCurrent(getDb(), token.sub, token.sv);
        } catch (err) {
          // The database is unreachable: keep the session rather than sign everyone out; nothing
          // that needs the account works without the database anyway.
          log.warn({ area: "auth", err }, "session version not checked");
          return token;
        }
        // Thrown, next-auth answers "no session" and clears the cookie: signed out.
        if (!current) throw new Error(SESSION_ENDED);
        return token;
      },
      session({ session, token }) {
        session.user = { id: token.sub ?? "", email: token.email ?? null, name: null };
        session.sessionVersion = token.sv ?? 0;
        return session;
      },
    },
    events: {
      // Signing out ends every session of the account, not only this browser's cookie: a copied
      // cookie would otherwise stay valid for SESSION_MAX_AGE_SECONDS.
      async signOut({ token }) {
        if (token?.sub) await endSessions(getDb(), token.sub);
      },
    },
    logger: {
      error: (code, metadata) => {
        const error = describe(metadata);
        if (code === "JWT_SESSION_ERROR" && error === SESSION_ENDED) log.info({ area: "auth" }, "ended session refused");
        else log.error({ area: "auth", code, error }, "next-auth error");
      },
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
