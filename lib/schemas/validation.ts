import type { z } from "zod";

// One sentence per validation failure, shared by the API's 400s and the storefront's forms.

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
