import { describe, expect, it } from "vitest";
import { clientAddress, isLoopbackClient } from "./client-ip";

describe("clientAddress", () => {
  it.each([
    ["the socket's peer when no proxy is trusted", "203.0.113.7", 0, "203.0.113.7"],
    ["never a client-written entry when no proxy is trusted", "6.6.6.6, 203.0.113.7", 0, "203.0.113.7"],
    ["the entry our proxy appended, one hop trusted", "6.6.6.6, 198.51.100.2, 127.0.0.1", 1, "198.51.100.2"],
    ["two hops trusted", "6.6.6.6, 198.51.100.2, 10.0.0.5, 127.0.0.1", 2, "198.51.100.2"],
    ["the left-most when fewer entries than hops", "198.51.100.2", 3, "198.51.100.2"],
    ["IPv4-mapped IPv6 as IPv4", "::ffff:127.0.0.1", 0, "127.0.0.1"],
    ["IPv6 per /64", "2001:db8:abcd:12:1:2:3:4", 0, "2001:db8:abcd:12::/64"],
    ["IPv6 with :: and zone", "fe80::1%eth0", 0, "fe80:0:0:0::/64"],
    ["loopback IPv6", "::1", 0, "0:0:0:0::/64"],
    ["bracketed IPv6 with a port", "[2001:db8::1]:443", 0, "2001:db8:0:0::/64"],
    ["IPv4 with a port", "198.51.100.2:5555", 0, "198.51.100.2"],
    ["garbage as one shared key", "<script>", 0, "invalid"],
    ["nothing at all", "", 0, "unknown"],
    ["no header", null, 0, "unknown"],
  ])("%s", (_, header, hops, expected) => {
    expect(clientAddress(header, hops)).toBe(expected);
  });
});

describe("isLoopbackClient", () => {
  it.each([
    ["127.0.0.1", 0, true],
    ["127.5.6.7:4321", 0, true],
    ["::1", 0, true],
    ["[::1]:3000", 0, true],
    ["0:0:0:0:0:0:0:1", 0, true],
    ["::ffff:127.0.0.1", 0, true],
    // Behind one trusted proxy on this machine, the client is the entry it appended.
    ["203.0.113.9, 127.0.0.1", 1, false],
    ["127.0.0.1, 127.0.0.1", 1, true],
    // A client cannot claim to be loopback by writing the header itself.
    ["127.0.0.1, 203.0.113.9", 0, false],
    ["10.0.0.1", 0, false],
    ["::2", 0, false],
    ["1::1", 0, false],
    ["localhost", 0, false],
    ["", 0, false],
  ] as const)("%s with %i trusted hops: %s", (chain, hops, expected) => {
    expect(isLoopbackClient(chain, hops)).toBe(expected);
  });
});
