import type { z } from "zod";

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

function describePath(path: PropertyKey[]): string {
  return path.map(String).join(".");
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** One sentence for the first problem zod found in `input`, naming the field. */
export function validationMessage(error: z.ZodError, input: unknown): string {
  const issue = error.issues[0];
  if (!issue) return "the request is invalid";
  const field = describePath(issue.path);
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((k) => (field ? `${field}.${k}` : k));
    return `unknown field${keys.length > 1 ? "s" : ""}: ${keys.join(", ")}`;
  }
  if (field && issue.code !== "custom" && valueAt(input, issue.path) === undefined) return `${field} is required`;
  // Messages written in the schemas name their field already; zod's own defaults do not.
  if (field && !issue.message.startsWith(field) && !issue.message.startsWith("the request")) {
    return `${field}: ${issue.message}`;
  }
  return issue.message;
}
