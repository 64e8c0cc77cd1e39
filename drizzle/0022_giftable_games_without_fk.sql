ALTER TABLE "giftable_games" DROP CONSTRAINT "giftable_games_app_id_games_app_id_fk";
