import ipaddr from "ipaddr.js";

/**
 * What kind of address a callback would connect to. Only `public` may be reached (unless the host
 * is allowed by configuration): everything else is the machine itself, the private network it sits
 * in, the cloud's metadata service, or addresses that are never a real receiver.
 * Pure (no Node APIs), so the request schemas can refuse such callback URLs in the browser too.
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

type Rule = readonly [base: string, prefix: number, cls: AddressClass];

// IANA special-purpose registries; order matters only where ranges nest (the narrower first).
const IPV4_RULES: readonly Rule[] = [
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

const IPV6_RULES: readonly Rule[] = [
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
// `at` is the byte where the IPv4 address starts.
const IPV4_CARRIERS: readonly [base: string, prefix: number, at: number][] = [
  ["::ffff:0:0", 96, 12], // IPv4-mapped
  ["64:ff9b::", 96, 12], // NAT64 well-known prefix
  ["2002::", 16, 2], // 6to4
];

const v4Range = (base: string, prefix: number): [ipaddr.IPv4, number] => [ipaddr.IPv4.parse(base), prefix];
const v6Range = (base: string, prefix: number): [ipaddr.IPv6, number] => [ipaddr.IPv6.parse(base), prefix];
const parsedV4 = IPV4_RULES.map(([base, prefix, cls]) => [v4Range(base, prefix), cls] as const);
const parsedV6 = IPV6_RULES.map(([base, prefix, cls]) => [v6Range(base, prefix), cls] as const);
const parsedCarriers = IPV4_CARRIERS.map(([base, prefix, at]) => [v6Range(base, prefix), at] as const);
const GLOBAL_UNICAST_V6 = v6Range("2000::", 3);

/**
 * Classifies a literal IPv4 or IPv6 address (a zone id such as `%eth0` is ignored). IPv4 only in
 * its four-part decimal form: `127.1` and `0x7f000001` are host names to a resolver, not addresses.
 */
export function classifyAddress(address: string): AddressClass {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return classifyV4(ipaddr.IPv4.parse(address));
  const text = hexTail(address);
  if (text === null || !ipaddr.IPv6.isValid(text)) return "invalid";
  const v6 = ipaddr.IPv6.parse(text);
  for (const [range, cls] of parsedV6) if (v6.match(range)) return cls;
  for (const [range, at] of parsedCarriers) {
    if (v6.match(range)) return classifyV4(new ipaddr.IPv4(v6.toByteArray().slice(at, at + 4)));
  }
  // Everything outside 2000::/3 is unassigned, deprecated (site-local, IPv4-compatible) or special.
  return v6.match(GLOBAL_UNICAST_V6) ? "public" : "reserved";
}

function classifyV4(v4: ipaddr.IPv4): AddressClass {
  for (const [range, cls] of parsedV4) if (v4.match(range)) return cls;
  return "public";
}

/**
 * A dotted IPv4 tail (`::ffff:127.0.0.1`) as the last two groups. ipaddr.js would read every such
 * tail as IPv4-mapped, `::127.0.0.1` (IPv4-compatible, deprecated: reserved) included.
 */
function hexTail(address: string): string | null {
  const cut = address.lastIndexOf(":") + 1;
  const tail = address.slice(cut).split("%")[0] ?? "";
  if (!tail.includes(".")) return address;
  if (!ipaddr.IPv4.isValidFourPartDecimal(tail)) return null;
  const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(tail).octets;
  return `${address.slice(0, cut)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}
