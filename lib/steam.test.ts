import { describe, expect, it } from "vitest";
import {
  accountIdFromSteamId64,
  canonicalInviteUrl,
  decodeInviteCode,
  inviteRecipient,
  isInviteUrl,
  parseTradeLink,
  steamId64FromAccountId,
} from "./steam";

describe("accountIdFromSteamId64", () => {
  it.each([
    ["76561197960265729", 1],
    ["76561198000000001", 39_734_273],
    ["76561202255233023", 4_294_967_295],
  ])("%s is account %i", (id, account) => {
    expect(accountIdFromSteamId64(id)).toBe(account);
    expect(steamId64FromAccountId(account)).toBe(id);
  });

  it.each([
    ["76561197960265728", "account id 0"],
    ["76561202255233024", "past the 32-bit account range"],
    ["7656119800000000", "16 digits"],
    ["765611980000000011", "18 digits"],
    ["7656119800000000a", "not digits"],
    ["", "empty"],
    ["11111111111111111", "another universe"],
  ])("rejects %s (%s)", (id) => {
    expect(accountIdFromSteamId64(id)).toBeNull();
  });
});

describe("parseTradeLink", () => {
  it("reads partner and token", () => {
    expect(parseTradeLink("https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12")).toEqual({
      partner: 39_734_273,
      token: "AbCdEf12",
    });
    expect(parseTradeLink("https://steamcommunity.com/tradeoffer/new?token=Ab-d_f12&partner=1")).toEqual({
      partner: 1,
      token: "Ab-d_f12",
    });
  });

  it.each([
    ["http://steamcommunity.com/tradeoffer/new/?partner=1&token=AbCdEf12", "http"],
    ["https://steamcommunity.com.evil.io/tradeoffer/new/?partner=1&token=AbCdEf12", "look-alike host"],
    ["https://user:pw@steamcommunity.com/tradeoffer/new/?partner=1&token=AbCdEf12", "credentials"],
    ["https://steamcommunity.com/tradeoffer/old/?partner=1&token=AbCdEf12", "wrong path"],
    ["https://steamcommunity.com/tradeoffer/new/?partner=1&token=AbCdEf1", "7-char token"],
    ["https://steamcommunity.com/tradeoffer/new/?partner=1&token=AbCdEf123", "9-char token"],
    ["https://steamcommunity.com/tradeoffer/new/?partner=0&token=AbCdEf12", "partner 0"],
    ["https://steamcommunity.com/tradeoffer/new/?partner=4294967296&token=AbCdEf12", "partner too large"],
    ["https://steamcommunity.com/tradeoffer/new/?token=AbCdEf12", "no partner"],
    ["javascript:alert(1)", "script"],
    ["not a url", "garbage"],
    ["https://steamcommunity.com/tradeoffer/new/?partner=1&partner=2&token=AbCdEf12", "two partners"],
    ["https://steamcommunity.com/tradeoffer/new/?partner=1&token=AbCdEf12&token=ZzZzZz99", "two tokens"],
    ["https://steamcommunity.com/tradeoffer/new/?partner=1&token=AbCdEf12&partner=", "an empty second partner"],
  ])("rejects %s (%s)", (link) => {
    expect(parseTradeLink(link)).toBeNull();
  });
});

describe("isInviteUrl", () => {
  // The code's alphabet is letters only, so FHGC-RDQR is the same code as fhgc-rdqr: one typed on a
  // phone with caps lock, or copied from a message that shouted, still names the friend.
  it.each(["https://s.team/p/fhgc-rdqr/NQVGTQPG", "https://s.team/p/abcd/ABCDEFGH/", "https://s.team/p/FHGC-RDQR/NQVGTQPG"])(
    "accepts %s",
    (url) => {
      expect(isInviteUrl(url)).toBe(true);
    },
  );
  it.each([
    "http://s.team/p/fhgc-rdqr/NQVGTQPG",
    "https://s.team.evil.io/p/fhgc-rdqr/NQVGTQPG",
    "https://s.team/x/fhgc-rdqr/NQVGTQPG",
    "https://s.team/p/fhgc-rdqr",
    "https://s.team/p/fhgc-rdqr/NQVGTQPG?next=https://evil.io",
    "https://s.team/p/FH GC/NQVGTQPG",
  ])("rejects %s", (url) => {
    expect(isInviteUrl(url)).toBe(false);
  });
});

describe("decodeInviteCode and inviteRecipient", () => {
  it("reads the account id written in bcdfghjkmnpqrtvw hex, with or without the dash", () => {
    // f h g c r d q r = 3 5 4 1 c 2 b c
    expect(decodeInviteCode("fhgc-rdqr")).toBe(0x3541c2bc);
    expect(decodeInviteCode("fhgcrdqr")).toBe(0x3541c2bc);
    expect(decodeInviteCode("FHGC-RDQR")).toBe(0x3541c2bc);
    expect(decodeInviteCode("c")).toBe(1);
    expect(decodeInviteCode("wwww-wwww")).toBe(0xffffffff);
  });

  it.each([
    ["an empty code", ""],
    ["letters outside the alphabet", "abcd-efgh"],
    ["digits", "1234"],
    ["account id 0", "bbbb"],
    ["more than 32 bits", "cbbbb-bbbbb"],
    ["a dash at the end", "fhgc-"],
    ["two dashes in a row", "fhgc--rdqr"],
  ])("refuses %s", (_, code) => expect(decodeInviteCode(code)).toBeNull());

  it("gives the SteamID64 of the invited account", () => {
    expect(inviteRecipient("https://s.team/p/fhgc-rdqr/NQVGTQPG")).toEqual({ accountId: 893502140, steamId64: "76561198853767868" });
    expect(inviteRecipient("https://s.team/p/FhGc-RdQr/NQVGTQPG")).toEqual({ accountId: 893502140, steamId64: "76561198853767868" });
    expect(inviteRecipient("https://s.team/p/abcd-efgh/QWERTYUI")).toBeNull();
    expect(inviteRecipient("https://example.com/p/fhgc-rdqr/NQVGTQPG")).toBeNull();
  });
});

describe("canonicalInviteUrl", () => {
  it("writes the code in lower case and keeps the token as it was (its case matters)", () => {
    expect(canonicalInviteUrl("https://s.team/p/FHGC-RDQR/NQVGTQPG")).toBe("https://s.team/p/fhgc-rdqr/NQVGTQPG");
    expect(canonicalInviteUrl("HTTPS://S.TEAM/p/Fhgc-Rdqr/NqVgTqPg/")).toBe("https://s.team/p/fhgc-rdqr/NqVgTqPg/");
    expect(canonicalInviteUrl("https://s.team/p/fhgc-rdqr/NQVGTQPG")).toBe("https://s.team/p/fhgc-rdqr/NQVGTQPG");
  });
});
