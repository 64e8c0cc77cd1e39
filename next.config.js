/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // pg loads optional native bindings dynamically; keep it out of the server bundle.
  serverExternalPackages: ["pg"],
  // Every response, JSON and assets included; pages get the rest of their headers (CSP) from proxy.ts.
  async headers() {
    return [{ source: "/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] }];
  },
};

export default nextConfig;
