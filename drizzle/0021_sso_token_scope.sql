-- A token made by an organization's single sign-on acts in that organization only; it goes with it.
ALTER TABLE "api_tokens" ADD COLUMN "scope_organization_id" text;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_scope_organization_id_organizations_id_fk" FOREIGN KEY ("scope_organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_scope_organization_idx" ON "api_tokens" USING btree ("scope_organization_id");
