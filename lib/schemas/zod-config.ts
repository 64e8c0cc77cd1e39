import { z } from "zod";

// The pages' Content Security Policy forbids eval. Zod probes once for `new Function` (to compile
// fast object parsers) and catches the refusal, but the browser still reports a CSP violation:
// tell it up front not to try. Browser only: the setting is process-wide, and the server keeps its
// JIT. Every schema module imports this, so it runs wherever zod reaches the browser, and only there.
if (typeof window !== "undefined") z.config({ jitless: true });
