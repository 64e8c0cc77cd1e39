ALTER TABLE "api_tokens" ADD COLUMN "session_version" integer;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_session_storefront_only" CHECK ("api_tokens"."session_version" IS NULL OR "api_tokens"."purpose" = 'storefront');--> statement-breakpoint
-- Storefront tokens already out for signed-in shoppers (guests' owner has no sessions) are tied to
-- the account's current session version, so the first sign-out after the upgrade ends them too.
UPDATE "api_tokens" AS t SET "session_version" = u."session_version"
FROM "users" AS u
WHERE u."id" = t."user_id" AND t."purpose" = 'storefront' AND u."password_hash" IS NOT NULL AND t."expires_at" > now();--> statement-breakpoint
CREATE TABLE "email_confirmations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "email_confirmations_expiry" CHECK ("email_confirmations"."expires_at" > "email_confirmations"."created_at")
);
--> statement-breakpoint
ALTER TABLE "mail_messages" DROP CONSTRAINT "mail_messages_kind_known";--> statement-breakpoint
ALTER TABLE "mail_messages" ALTER COLUMN "intent_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "locale" text DEFAULT 'ru' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_confirmations" ADD CONSTRAINT "email_confirmations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_confirmations_user_idx" ON "email_confirmations" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "email_confirmations" ADD COLUMN "mail_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "email_confirmations_mail_pending_idx" ON "email_confirmations" USING btree ("created_at") WHERE mail_pending;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_subject" CHECK (CASE WHEN "mail_messages"."kind" = 'email_confirmation' THEN "mail_messages"."intent_id" IS NULL AND "mail_messages"."user_id" IS NOT NULL ELSE "mail_messages"."intent_id" IS NOT NULL AND "mail_messages"."user_id" IS NULL END);--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_kind_known" CHECK ("mail_messages"."kind" IN ('receipt', 'delivered', 'delivery_failed_refunded', 'refunded', 'email_confirmation'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_locale_known" CHECK ("users"."locale" IN ('ru', 'en'));
--> statement-breakpoint
-- A confirmation is of an address: an account whose address changes is unconfirmed again, whatever
-- code changes it.
CREATE FUNCTION users_email_change_unconfirms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF lower(NEW.email) IS DISTINCT FROM lower(OLD.email) THEN
    NEW.email_confirmed_at := NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER users_email_change_unconfirms BEFORE UPDATE OF email ON users
  FOR EACH ROW EXECUTE FUNCTION users_email_change_unconfirms();--> statement-breakpoint
-- Accounts from before confirmation are unconfirmed (their owners confirm from the account page),
-- except two kinds of staff: an account the staff command made for its grant (nobody could have
-- registered the address first; the audit log says so), and every admin, so that an upgrade never
-- locks the store out of its back office. Other staff's roles wait until they confirm.
UPDATE users SET email_confirmed_at = now()
WHERE id IN (SELECT user_id FROM staff_members WHERE role = 'admin')
   OR id IN (
     SELECT s.user_id FROM staff_members s
     JOIN audit_log a ON a.target_type = 'user' AND a.target_id = s.user_id::text AND a.action = 'staff.grant'
     WHERE (a.after ->> 'accountCreated')::boolean);
