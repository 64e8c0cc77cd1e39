-- Forgiving search: alternative titles (Russian or transliterated names, abbreviations) join the
-- title words of the text index, and every name of a game is kept in one string with a trigram
-- index, so a misspelt title ("cyberpnk") is still found by similarity without a sequential scan.
-- That string is spelt in Latin (search_latin): a Russian name is then close to its transliteration,
-- and pg_trgm, which only sees the letters the server's LC_CTYPE knows, sees Cyrillic names even on the
-- embedded server (initialised with LC_CTYPE=C, where show_trgm('тихая') is empty).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- array_to_string and concat_ws are only STABLE (they could format any type), so generated columns cannot
-- call it; for text[] it is immutable, which this wrapper states.
CREATE FUNCTION game_search_names(title text, title_ru text, alt_titles text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN concat_ws(' ', title, title_ru, array_to_string(alt_titles, ' '));--> statement-breakpoint
-- The same spelling as toLatin() in lib/catalog/transliterate.ts; upper case by translate(), as lower()
-- would follow the locale.
CREATE FUNCTION search_latin(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN translate(
    replace(replace(replace(replace(replace(replace(replace(replace(replace(
      translate(t, 'АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ', 'абвгдеёжзийклмнопрстуфхцчшщъыьэюя'),
      'щ', 'shch'), 'ж', 'zh'), 'х', 'kh'), 'ц', 'ts'), 'ч', 'ch'), 'ш', 'sh'), 'ю', 'yu'), 'я', 'ya'), 'ё', 'e'),
    'абвгдезийклмнопрстуфыэъь', 'abvgdeziyklmnoprstufye');--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "alt_titles" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "games" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', game_search_names(title, title_ru, alt_titles)), 'A')
          || setweight(to_tsvector('english', title), 'A')
          || setweight(to_tsvector('russian', game_search_names(title_ru, NULL, alt_titles)), 'A')
          || setweight(to_tsvector('simple', short_description || ' ' || coalesce(short_description_en, '')), 'B')
          || setweight(to_tsvector('russian', short_description), 'B')
          || setweight(to_tsvector('english', coalesce(short_description_en, '')), 'B')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "games_search_idx" ON "games" USING gin ("search");--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "search_names" text GENERATED ALWAYS AS (search_latin(game_search_names(title, title_ru, alt_titles))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "games_search_names_trgm_idx" ON "games" USING gin ("search_names" gin_trgm_ops);
