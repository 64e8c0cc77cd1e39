/**
 * Security headers for the store's HTML pages (set by proxy.ts, with a fresh nonce per request).
 * - script-src: only scripts carrying this response's nonce, and what they load ('strict-dynamic':
 *   Next's runtime adds its chunks as script elements). Development adds 'unsafe-eval' for React's
 *   error overlay; production never needs it.
 * - style-src 'unsafe-inline': Next's built-in error and not-found pages and its route announcer
 *   use style attributes, which a nonce cannot cover (nonces apply to elements, not attributes).
 *   Styles run no code, and no page renders HTML from user input.
 * - form-action: the payment page's form answers with a 303 to the partner's successUrl or
 *   failureUrl, and Chromium applies form-action to where a submission redirects; so /pay/ pages
 *   allow any https origin (and http on localhost, where partners develop), every other page 'self'.
 * - img-src: this site, and `imageHosts` over https (IMAGE_HOSTS: the store CDN that imported covers
 *   come from); nothing else, so a stored cover URL cannot point a page anywhere else.
 */
export function pageSecurityHeaders({
  nonce,
  pathname,
  https,
  dev,
  imageHosts,
}: {
  nonce: string;
  pathname: string;
  https: boolean;
  dev: boolean;
  imageHosts: readonly string[];
}): Record<string, string> {
  const formAction = pathname.startsWith("/pay/") ? "'self' https: http://localhost:* http://127.0.0.1:*" : "'self'";
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...imageHosts.map((h) => `https://${h}`)].join(" "),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
    // frame-ancestors is the modern control; X-Frame-Options covers browsers that predate it.
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    ...(https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/** 128 random bits, base64: unguessable and fresh for every response. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** The nonce proxy.ts put in this request's policy, for the few script tags a page writes itself. */
export function nonceFromPolicy(policy: string | null): string | undefined {
  return policy?.match(/'nonce-([A-Za-z0-9+/=_-]+)'/)?.[1];
}
