import { describe, expect, it } from "vitest";
import { appRoleFor, roleOf, urlAsRole } from "./roles";

describe("the app role's name and URL", () => {
  it("is named after its database, within PostgreSQL's 63 bytes, one per database", () => {
    expect(appRoleFor("giftkey")).toBe("giftkey_app");
    expect(appRoleFor("gk_test_4242_a1b2c3_http_d4e5f6")).toBe("gk_test_4242_a1b2c3_http_d4e5f6_app");
    const long = (tail: string) => appRoleFor(`${"x".repeat(70)}${tail}`);
    expect(Buffer.byteLength(long("a"))).toBeLessThanOrEqual(63);
    expect(long("a")).not.toBe(long("b"));
    expect(Buffer.byteLength(appRoleFor("база_данных_магазина_подарков_и_предметов"))).toBeLessThanOrEqual(63);
  });

  it("replaces only the login of a URL, escaping what needs it", () => {
    const owner = "postgres://postgres:s3cret@127.0.0.1:54329/giftkey?sslmode=disable";
    const app = urlAsRole(owner, { name: "giftkey_app", password: "p@ss/word" });
    expect(app).toBe("postgres://giftkey_app:p%40ss%2Fword@127.0.0.1:54329/giftkey?sslmode=disable");
    expect(roleOf(app)).toBe("giftkey_app");
    expect(roleOf(owner)).toBe("postgres");
  });
});
