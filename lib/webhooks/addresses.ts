import "server-only";
import { isIPv4, isIPv6 } from "node:net";

/**
 * What kind of address a callback would connect to. Only `public` may be reached (unless the host
 * is allowed by configuration): everything else is the machine itself, the private network it sits
 * in, the cloud's metadata service, or addresses that are never a real receiver.
 */
export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "cgnat"
  | "link-local"
  | "metadata"
  | "unique-local"
  | "multicast"
  | "broadcast"
  | "documentation"
  | "reserved"
  | "invalid";

type Rule<T> = readonly [base: T, prefix: number, cls: AddressClass];

// IANA special-purpose registries; order matters only where ranges nest (the narrower first).
const IPV4_RULES: readonly Rule<string>[] = [
  ["169.254.169.254", 32, "metadata"], // AWS, GCP, Azure, Oracle, DigitalOcean
  ["100.100.100.200", 32, "metadata"], // Alibaba Cloud
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "cgnat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["255.255.255.255", 32, "broadcast"],
  ["240.0.0.0", 4, "reserved"],
];

const IPV6_RULES: readonly Rule<string>[] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["fd00:ec2::254", 128, "metadata"], // AWS over IPv6
  ["64:ff9b:1::", 48, "private"], // local-use NAT64
  ["fc00::", 7, "unique-local"],
  ["fe80::", 10, "link-local"],
  ["ff00::", 8, "multicast"],
  ["2001:db8::", 32, "documentation"],
  ["3fff::", 20, "documentation"],
  ["2001::", 23, "reserved"], // protocol assignments, Teredo among them
];

// IPv6 forms that carry an IPv4 address: what they reach is decided by that address.
const IPV4_CARRIERS: readonly [base: string, prefix: number, shift: bigint][] = [
  ["::ffff:0:0", 96, 0n], // IPv4-mapped
  ["64:ff9b::", 96, 0n], // NAT64 well-known prefix
  ["2002::", 16, 80n], // 6to4
];

const parsedV4 = IPV4_RULES.map(([base, prefix, cls]) => [ipv4ToInt(base)!, prefix, cls] as const);
const parsedV6 = IPV6_RULES.map(([base, prefix, cls]) => [ipv6ToBigInt(base)!, prefix, cls] as const);
const parsedCarriers = IPV4_CARRIERS.map(([base, prefix, shift]) => [ipv6ToBigInt(base)!, prefix, shift] as const);
const GLOBAL_UNICAST_V6 = ipv6ToBigInt("2000::")!;

/** Classifies a literal IPv4 or IPv6 address (a zone id such as `%eth0` is ignored). */
export function classifyAddress(address: string): AddressClass {
  const v4 = ipv4ToInt(address);
  if (v4 !== null) return classifyV4(v4);
  const v6 = ipv6ToBigInt(address);
  if (v6 === null) return "invalid";
  for (const [base, prefix, cls] of parsedV6) if (inPrefix(v6, base, prefix, 128)) return cls;
  for (const [base, prefix, shift] of parsedCarriers) {
    if (inPrefix(v6, base, prefix, 128)) return classifyV4(Number((v6 >> shift) & 0xffff_ffffn));
  }
  // Everything outside 2000::/3 is unassigned, deprecated (site-local, IPv4-compatible) or special.
  return inPrefix(v6, GLOBAL_UNICAST_V6, 3, 128) ? "public" : "reserved";
}

function classifyV4(value: number): AddressClass {
  for (const [base, prefix, cls] of parsedV4) if (inPrefix(BigInt(value), BigInt(base), prefix, 32)) return cls;
  return "public";
}

function inPrefix(value: bigint, base: bigint, prefix: number, bits: number): boolean {
  const shift = BigInt(bits - prefix);
  return value >> shift === base >> shift;
}

function ipv4ToInt(text: string): number | null {
  if (!isIPv4(text)) return null;
  return text.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

function ipv6ToBigInt(text: string): bigint | null {
  let s = text.split("%")[0] ?? "";
  if (!isIPv6(s)) return null;
  if (s.includes(".")) {
    // A dotted IPv4 tail (`::ffff:127.0.0.1`) becomes the last two groups.
    const cut = s.lastIndexOf(":") + 1;
    const v4 = ipv4ToInt(s.slice(cut));
    if (v4 === null) return null;
    s = `${s.slice(0, cut)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = "", tail] = s.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill("0");
  const groups = [...headGroups, ...zeros, ...tailGroups];
  if (groups.length !== 8) return null;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}
