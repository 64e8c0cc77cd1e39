import { z } from "zod";
import { adminDaySchema } from "./bounds";
import { attributionSchema } from "./common";

// The back office's campaign pages: the report's URL parameters and the link builder's form. The
// link builder's page parses its GET form with linkBuilderSchema; the API's attribution rules (1 to
// 200 characters, trimmed) are the limits, so every link it makes is one the store then records.

/** A calendar day 'YYYY-MM-DD' that exists (not 2026-02-30), within the back office's window. */
export const isoDaySchema = adminDaySchema;

export const CAMPAIGN_SORTS = ["revenue", "visits", "intents", "paid"] as const;
export type CampaignSort = (typeof CAMPAIGN_SORTS)[number];

/** The longest period the report covers at once: a year, leap day included. */
export const MAX_REPORT_DAYS = 366;

const optionalName = z.string().max(200).optional().catch(undefined);

/** What the report's URL may say; anything unreadable falls back to the default rather than failing the page. */
export const campaignReportQuerySchema = z.object({
  from: isoDaySchema.optional().catch(undefined),
  to: isoDaySchema.optional().catch(undefined),
  /** One campaign's chart and funnel; '' is a name too (a link without utm_campaign). */
  source: optionalName,
  medium: optionalName,
  campaign: optionalName,
  sort: z.enum(CAMPAIGN_SORTS).default("revenue").catch("revenue"),
  page: z.coerce.number().int().min(1).max(10_000).default(1).catch(1),
});
export type CampaignReportQuery = z.infer<typeof campaignReportQuerySchema>;

export const LINK_TARGETS = ["catalog", "game", "gear", "path"] as const;
export type LinkTarget = (typeof LINK_TARGETS)[number];

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const utm = attributionSchema.shape;

/** The link builder's form: which store page, and the campaign's names. */
export const linkBuilderSchema = z
  .object({
    target: z.enum(LINK_TARGETS, { error: "target must be catalog, game, gear or path" }),
    /** For `game`: the app id, or words of its title to search for. */
    game: z.preprocess(blankToUndefined, z.string().trim().max(200, { error: "game must be at most 200 characters" }).optional()),
    /** For `path`: a path on the store ("/games/620?region=KZ") or a full URL on its origin. */
    path: z.preprocess(blankToUndefined, z.string().trim().max(2000, { error: "path must be at most 2000 characters" }).optional()),
    utm_source: z.preprocess(blankToUndefined, z.string({ error: "utm_source is required" }).pipe(utm.utm_source.unwrap())),
    utm_medium: z.preprocess(blankToUndefined, z.string({ error: "utm_medium is required" }).pipe(utm.utm_medium.unwrap())),
    utm_campaign: z.preprocess(blankToUndefined, utm.utm_campaign),
    utm_content: z.preprocess(blankToUndefined, utm.utm_content),
    utm_term: z.preprocess(blankToUndefined, utm.utm_term),
  })
  .superRefine((v, ctx) => {
    if (v.target === "game" && !v.game) ctx.addIssue({ code: "custom", path: ["game"], message: "game is required for a game's page" });
    if (v.target === "path" && !v.path)
      ctx.addIssue({ code: "custom", path: ["path"], message: "path is required for a page of your choice" });
  });
export type LinkBuilderInput = z.infer<typeof linkBuilderSchema>;
