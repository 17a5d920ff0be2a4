CREATE TABLE "translations" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"source_space_id" text NOT NULL,
	"source_language" text NOT NULL,
	"language" text NOT NULL,
	"instructions" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure" text,
	"queued_at" timestamp (3) with time zone,
	"run_started_at" timestamp (3) with time zone,
	"run_by" text,
	"result_space_id" text,
	"result_revision_id" text,
	"runs" integer DEFAULT 0 NOT NULL,
	"total_words" integer DEFAULT 0 NOT NULL,
	"total_pages" integer DEFAULT 0 NOT NULL,
	"total_duration_ms" integer DEFAULT 0 NOT NULL,
	"latest_run_duration_ms" integer DEFAULT 0 NOT NULL,
	"latest_pages" integer DEFAULT 0 NOT NULL,
	"latest_words" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "translation_pages" (
	"translation_id" text NOT NULL,
	"source_page_id" text NOT NULL,
	"source_hash" text NOT NULL,
	"translated" jsonb NOT NULL,
	"translated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "translation_pages_translation_id_source_page_id_pk" PRIMARY KEY("translation_id","source_page_id")
);
--> statement-breakpoint
ALTER TABLE "translations" ADD CONSTRAINT "translations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "translations" ADD CONSTRAINT "translations_source_space_id_spaces_id_fk" FOREIGN KEY ("source_space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "translations" ADD CONSTRAINT "translations_run_by_users_id_fk" FOREIGN KEY ("run_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "translations" ADD CONSTRAINT "translations_result_space_id_spaces_id_fk" FOREIGN KEY ("result_space_id") REFERENCES "public"."spaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "translation_pages" ADD CONSTRAINT "translation_pages_translation_id_translations_id_fk" FOREIGN KEY ("translation_id") REFERENCES "public"."translations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "translations_organization_idx" ON "translations" USING btree ("organization_id","created_at","id");
