/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // pg loads optional native bindings dynamically; keep it out of the server bundle.
  serverExternalPackages: ["pg"],
};

export default nextConfig;
