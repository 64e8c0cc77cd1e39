import { describe, expect, it } from "vitest";
import { describeNetworkError } from "./outbound";

// What a failed connection says in the owner's delivery log: never the address the host resolved to.
describe("describeNetworkError", () => {
  const error = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

  it.each([
    [error("connect ECONNREFUSED 10.0.0.5:443", "ECONNREFUSED"), "connection refused (ECONNREFUSED)"],
    [error("connect EACCES 10.0.0.5:443", "EACCES"), "connect EACCES an address (EACCES)"],
    [error("connect ENETDOWN fd00:ec2::254:443", "ENETDOWN"), "connect ENETDOWN an address (ENETDOWN)"],
    [
      error("connect EADDRNOTAVAIL [2001:db8::1]:443 - Local (0.0.0.0:0)", "EADDRNOTAVAIL"),
      "connect EADDRNOTAVAIL an address - Local (an address) (EADDRNOTAVAIL)",
    ],
    [
      error("write EPROTO 0A00010B:SSL routines:ssl3_get_record:wrong version number", "EPROTO"),
      "write EPROTO 0A00010B:SSL routines:ssl3_get_record:wrong version number (EPROTO)",
    ],
    [error("socket hang up"), "socket hang up"],
    [{}, "network error"],
  ])("%s", (err, said) => {
    expect(describeNetworkError(err)).toBe(said);
  });
});
