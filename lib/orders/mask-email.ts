/** `gamer@example.com` -> `ga•••@example.com`: for pages whose link may travel further than its owner. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "•••";
  return `${email.slice(0, Math.min(2, at))}•••${email.slice(at)}`;
}
