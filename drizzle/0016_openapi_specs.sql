CREATE TABLE "openapi_specs" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
	"slug" text NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"source_url" text,
	"source_text" text,
	"processing_state" text DEFAULT 'pending' NOT NULL,
	"last_version_id" text,
	"last_processed_at" timestamp (3) with time zone,
	"last_process_error_code" text,
	"last_process_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "openapi_specs_slug_idx" ON "openapi_specs" USING btree ("organization_id","slug");--> statement-breakpoint
CREATE INDEX "openapi_specs_list_idx" ON "openapi_specs" USING btree ("organization_id","created_at","id");--> statement-breakpoint
-- Each successful processing keeps the document it read, parsed into a summary of its operations.
CREATE TABLE "openapi_spec_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"spec_id" text NOT NULL REFERENCES "openapi_specs"("id") ON DELETE cascade,
	"text" text NOT NULL,
	"title" text NOT NULL,
	"api_version" text NOT NULL,
	"operations" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "openapi_spec_versions_spec_idx" ON "openapi_spec_versions" USING btree ("spec_id","created_at","id");
