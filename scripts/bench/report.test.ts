import { describe, expect, it } from "vitest";
import type { Measurement } from "./load";
import { assess, medianPair, type Pair } from "./report";

const m = (rps: number, p99 = 10): Measurement => ({ rps, p50: 5, p99, ok: rps * 10, non2xx: 0, errors: 0 });
const pair = (floorRps: number, rps: number, p99 = 10): Pair => ({ floor: m(floorRps), result: m(rps, p99) });

describe("medianPair", () => {
  it("reports the pair whose throughput ratio is the median, with every pair's ratio in the order measured", () => {
    const pairs = [pair(1000, 950), pair(1200, 960), pair(1100, 990)];
    const median = medianPair(pairs);
    expect(median.floor.rps).toBe(1100);
    expect(median.result.rps).toBe(990);
    expect(median.pairRatios.map((r) => r.toFixed(2))).toEqual(["0.95", "0.80", "0.90"]);
  });

  it("takes the lower middle pair of an even number, and refuses none", () => {
    expect(medianPair([pair(1000, 700), pair(1000, 900)]).result.rps).toBe(700);
    expect(() => medianPair([])).toThrow(/no pairs/);
  });

  it("judges a catalog row by its median pair: a slow floor run in one pair does not carry the verdict", () => {
    const row = assess({
      phase: "cached",
      scenario: "catalog",
      kind: "catalog",
      connections: 32,
      bytes: 9000,
      plain: null,
      ...medianPair([pair(1000, 920), pair(700, 910), pair(1000, 930)]),
    });
    expect(row.vsFloor).toBeCloseTo(0.93);
    expect(row.met).toBe(true);
    const slow = assess({ ...row, ...medianPair([pair(1000, 850), pair(1000, 880), pair(1000, 990)]) });
    expect(slow.met).toBe(false);
    expect(slow.verdict).toMatch(/MISSED \(0\.88x floor\)/);
  });
});
