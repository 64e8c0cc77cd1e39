// What the operator CLIs share: usage errors, exit codes and the database they work on.

/** A mistake in how the command was called: exit code 2 and a hint at the usage. */
export class UsageError extends Error {}

/**
 * Runs a CLI's `main`. A UsageError prints `name: message` and `usageHint` and exits 2; any other
 * failure prints `name: message` and exits 1. Output of `main` itself is left alone, so a CLI can
 * keep stdout for its result (the token CLI prints the token alone as its last line).
 */
export function runCli(name: string, main: () => Promise<void>, usageHint: string): void {
  main().catch((err: unknown) => {
    console.error(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    if (err instanceof UsageError) console.error(usageHint);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  });
}
