import { describe, expect, it } from "vitest";
import { escapeXml, layoutTitle, renderCover, renderCoverBackground } from "./render-cover";

describe("renderCover", () => {
  it("is a 460x215 SVG, the same for the same game and different for another", () => {
    const svg = renderCover({ appId: 620, title: "Portal 2" });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="460" height="215"/);
    expect(svg.endsWith("</svg>")).toBe(true);
    expect(svg).toContain(">Portal 2</tspan>");
    expect(renderCover({ appId: 620, title: "Portal 2" })).toBe(svg);
    expect(renderCover({ appId: 621, title: "Portal 2" })).not.toBe(svg);
  });

  it("escapes the title", () => {
    const svg = renderCover({ appId: 1, title: `Tom & Jerry <script>"'` });
    expect(svg).toContain("Tom &amp; Jerry &lt;script&gt;&quot;&apos;");
    expect(svg).not.toContain("<script>");
    expect(escapeXml("a\u0000b")).toBe("ab");
  });

  it("shrinks and wraps long titles, cutting the rest", () => {
    expect(layoutTitle("Dota 2")).toEqual({ size: 40, lines: ["Dota 2"] });
    expect(layoutTitle("Legends of the Storm: Winter's End").lines.length).toBeLessThanOrEqual(2);
    const long = layoutTitle("The Incredibly Long and Winding Title of a Game That Never Ends: Definitive Deluxe Anniversary Edition");
    expect(long.lines).toHaveLength(3);
    expect(long.lines[2]!.endsWith("…")).toBe(true);
  });
});

describe("renderCoverBackground", () => {
  it("crops the cover's middle to the card's proportions, without the title", () => {
    const { svg, accent } = renderCoverBackground(620, 1200, 630);
    const [x, y, w, h] = /viewBox="([^"]+)"/.exec(svg)![1]!.split(" ").map(Number);
    expect(w! / h!).toBeCloseTo(1200 / 630, 2);
    expect(h).toBeCloseTo(215, 0);
    expect(x! * 2 + w!).toBeCloseTo(460, 0);
    expect(y).toBe(0);
    expect(svg).not.toContain("<text");
    expect(accent).toMatch(/^hsla\(/);
    // The same picture as the cover: the same art before the cover's title.
    expect(renderCover({ appId: 620, title: "Portal 2" })).toContain(svg.slice(svg.indexOf("<defs>"), svg.indexOf("</svg>")));
  });
});
