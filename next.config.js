/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // forbidden() and app/forbidden.tsx: the back office answers 403 with a page, not a redirect.
  experimental: { authInterrupts: true },
  // pg loads optional native bindings dynamically; keep it out of the server bundle.
  serverExternalPackages: ["pg"],
  // The share-card route reads its font from disk; the standalone output must carry it.
  outputFileTracingIncludes: { "/covers/[file]": ["./lib/covers/fonts/*"] },
  // Every response, JSON and assets included; pages get the rest of their headers (CSP) from proxy.ts.
  async headers() {
    return [{ source: "/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] }];
  },
  // The container image is built from the standalone output (`npm run build:standalone`, which sets
  // this build-time switch). Other builds leave it off: `next start` warns on a standalone build,
  // and copying the traced node_modules would only slow every `npm test` build down.
  ...(process.env.NEXT_OUTPUT === "standalone" ? { output: "standalone" } : {}),
};

export default nextConfig;
