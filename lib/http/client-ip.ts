import { isIP } from "node:net";

/**
 * The client's address for rate limiting. The chain is X-Forwarded-For as the server received
 * it, with the socket's own peer appended (lib/http/peer-address.ts does that for every request,
 * as a proxy would). With `trustedHops` proxies in front, each appending the address it saw, the
 * client is the entry that many places from the right; anything further left was written by the
 * client and is ignored. IPv6 addresses count per /64, the block one subscriber usually holds.
 */
export function clientAddress(forwardedFor: string | null | undefined, trustedHops: number): string {
  const picked = clientEntry(forwardedFor, trustedHops);
  return picked ? normalizeAddress(picked) : "unknown";
}

function clientEntry(forwardedFor: string | null | undefined, trustedHops: number): string | undefined {
  const chain = (forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return chain[Math.max(0, chain.length - 1 - trustedHops)];
}

/**
 * Whether the client (picked as clientAddress picks it) is this machine: 127.0.0.0/8, ::1 or
 * ::ffff:127.x. For pages meant for a developer at the machine, never for anyone across a network.
 */
export function isLoopbackClient(forwardedFor: string | null | undefined, trustedHops: number): boolean {
  const picked = clientEntry(forwardedFor, trustedHops);
  if (!picked) return false;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(picked);
  let address = bracketed?.[1] ?? picked;
  if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) address = mapped[1];
  const kind = isIP(address);
  if (kind === 4) return address.startsWith("127.");
  return kind === 6 && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/i.test(address.split("%")[0]!);
}

export function normalizeAddress(raw: string): string {
  let address = raw.trim();
  // "[::1]:1234" and "1.2.3.4:5678" are what some proxies write.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed?.[1]) address = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) address = mapped[1];
  const kind = isIP(address);
  if (kind === 4) return address;
  if (kind === 6) return `${ipv6Prefix64(address)}::/64`;
  // Not an address (a proxy's "unknown", garbage): one shared key, bounded in length.
  return "invalid";
}

function ipv6Prefix64(address: string): string {
  const zoneless = address.split("%")[0]!.toLowerCase();
  const [head = "", tail = ""] = zoneless.split("::");
  const left = head ? head.split(":") : [];
  const right = zoneless.includes("::") ? (tail ? tail.split(":") : []) : [];
  const groups = zoneless.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(":");
}
