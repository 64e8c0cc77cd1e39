/**
 * How next-auth reports a refused sign-in (the `error` parameter): a wrong password, or too many of
 * them. Its own module, without zod: the header's sign-out button puts the browser's sign-in client
 * on every page, and an import of the account schemas would bring zod (a third of the catalog's
 * script) with it.
 */
export const SIGN_IN_ERRORS = { invalid: "CredentialsSignin", tooMany: "TooManyAttempts" } as const;
