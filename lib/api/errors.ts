import { DomainError, type ErrorBody, type Reason, type ReasonDetails } from "@/lib/errors";
import { detailsOf, headersOf, messageOf, statusOf } from "./reasons";

/**
 * The JSON answer for a refusal: `{code, message, reason}` (and `param` when one field is at
 * fault), the status and headers the reason's catalogue entry gives (lib/api/reasons.ts).
 */
export function errorResponse<R extends Reason>(
  reason: R,
  details: ReasonDetails[R],
  options: { param?: string; headers?: Record<string, string> } = {},
): Response {
  const status = statusOf(reason);
  const extra = detailsOf(reason, details);
  const body: ErrorBody = {
    code: status,
    message: messageOf(reason, details),
    reason,
    ...(options.param ? { param: options.param } : {}),
    ...(extra ? { details: extra } : {}),
  };
  return Response.json(body, { status, headers: { ...headersOf(reason, details), ...options.headers } });
}

export function domainErrorResponse(err: DomainError): Response {
  return errorResponse(err.reason, err.details, { param: err.param });
}
