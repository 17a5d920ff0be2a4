CREATE TABLE "saml_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"label" text NOT NULL,
	"entity_id" text NOT NULL,
	"sso_url" text NOT NULL,
	"certificate" text NOT NULL,
	"default_team_id" text,
	"default_role" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "saml_providers" ADD CONSTRAINT "saml_providers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_providers" ADD CONSTRAINT "saml_providers_default_team_id_teams_id_fk" FOREIGN KEY ("default_team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saml_providers_organization_idx" ON "saml_providers" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "saml_providers_default_team_idx" ON "saml_providers" USING btree ("default_team_id");--> statement-breakpoint
CREATE TABLE "saml_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"provider_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "saml_requests" ADD CONSTRAINT "saml_requests_provider_id_saml_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."saml_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saml_requests_provider_idx" ON "saml_requests" USING btree ("provider_id");--> statement-breakpoint
CREATE TABLE "saml_assertions" (
	"provider_id" text NOT NULL,
	"assertion_id" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "saml_assertions_provider_id_assertion_id_pk" PRIMARY KEY("provider_id","assertion_id")
);
--> statement-breakpoint
ALTER TABLE "saml_assertions" ADD CONSTRAINT "saml_assertions_provider_id_saml_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."saml_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saml_assertions_expires_idx" ON "saml_assertions" USING btree ("expires_at");
