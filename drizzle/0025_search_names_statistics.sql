-- The fuzzy search's `<%` (pg_trgm word similarity, lib/services/catalog.ts) is estimated by
-- matchingsel, which runs the operator itself against the column's statistics: every most-common
-- value and, once the histogram has 100 entries or more, every histogram entry. At the default
-- statistics target that is about 200 word_similarity calls per statement planned, 0.7 of the
-- 0.86 ms it took to plan the fuzzy search at 100,000 games (its execution: 0.09 ms). With 10, the
-- histogram is too small to be used and planning takes 0.17 ms; the plan is the same bitmap OR of
-- the text and trigram indexes (the estimate only ever chose between those two indexes and a
-- sequential scan, which a search over the whole store never wins). Nothing else filters on
-- search_names. ANALYZE so that a catalog already loaded plans with the smaller statistics now.
ALTER TABLE "games" ALTER COLUMN "search_names" SET STATISTICS 10;--> statement-breakpoint
ANALYZE "games" ("search_names");
