/**
 * An error with an HTTP status that the API wrapper turns into the `{ code, message }` body.
 * Services throw these; anything else becomes a generic 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
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
