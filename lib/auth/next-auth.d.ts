import type { DefaultSession } from "next-auth";

declare module "next-auth" {
  interface Session {
    user: DefaultSession["user"] & { id: string };
    /** The JWT's `sv`: what a storefront token issued to this session is tied to. */
    sessionVersion?: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    /** The account's session version when this session was issued (lib/auth/session-version.ts). */
    sv?: number;
  }
}
