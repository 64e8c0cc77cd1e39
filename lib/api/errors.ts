/**
 * An error with an HTTP status that the API wrapper turns into the `{ code, message }` body.
 * Services throw these; anything else becomes a generic 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** `promo_code`: a refused promo code, which counts against the stricter promo-guess limit. */
    readonly reason?: "promo_code",
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
/** 400 for a promo code that does not exist or cannot be used: counted as a guess (lib/api/handler.ts). */
export const promoCodeRefused = (message: string) => new ApiError(400, message, {}, "promo_code");
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const forbidden = (message: string) => new ApiError(403, message);

/** 401 with the RFC 6750 challenge; `error` is left out when no credentials were sent at all. */
export function unauthorized(message: string, error?: "invalid_request" | "invalid_token"): ApiError {
  const challenge = error ? `Bearer realm="api", error="${error}", error_description="${message}"` : 'Bearer realm="api"';
  return new ApiError(401, message, { "WWW-Authenticate": challenge });
}

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ code: status, message }, { status, headers });
}
