CREATE TABLE "mail_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"intent_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"locale" text NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"message_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_messages_attempts" CHECK ("mail_messages"."attempt_count" >= 0),
	CONSTRAINT "mail_messages_status_known" CHECK ("mail_messages"."status" IN ('pending', 'sent', 'stored', 'failed')),
	CONSTRAINT "mail_messages_kind_known" CHECK ("mail_messages"."kind" IN ('receipt', 'delivered', 'delivery_failed_refunded', 'refunded')),
	CONSTRAINT "mail_messages_locale_known" CHECK ("mail_messages"."locale" IN ('ru', 'en')),
	CONSTRAINT "mail_messages_sent_time" CHECK (("mail_messages"."sent_at" IS NOT NULL) = ("mail_messages"."status" IN ('sent', 'stored')))
);
--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "locale" text DEFAULT 'ru' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_intent_id_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."intents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_messages_due_idx" ON "mail_messages" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "mail_messages_created_idx" ON "mail_messages" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_messages_intent_kind_key" ON "mail_messages" USING btree ("intent_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_messages_message_id_key" ON "mail_messages" USING btree ("message_id");--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_locale_known" CHECK ("intents"."locale" IN ('ru', 'en'));