import { headersOf, messageOf, statusOf } from "@/lib/api/reasons";
import { DomainError } from "@/lib/errors";

/**
 * What the API would answer for a service's refusal: the status and message the catalogue gives
 * its reason, with the reason and param. Fails when `promise` resolves or throws anything else.
 */
export async function refusal(promise: Promise<unknown>) {
  let err: unknown;
  try {
    await promise;
  } catch (caught) {
    err = caught;
  }
  if (!(err instanceof DomainError)) throw new Error(`expected a DomainError, got ${err === undefined ? "a result" : String(err)}`);
  return asAnswered(err);
}

export function asAnswered(err: DomainError) {
  return {
    status: statusOf(err.reason),
    message: messageOf(err.reason, err.details),
    reason: err.reason,
    param: err.param,
    headers: headersOf(err.reason, err.details),
  };
}
