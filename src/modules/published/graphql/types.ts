import { builder } from '../../../graphql/builder';
import { SiteRef } from '../../sites/graphql/refs';
import { getCustomization, getPublishingAuth } from '../service';
import { PublishingAuthBackendEnum, SitePublishingAuthRef, SiteCustomizationRef, type Customization } from './refs';

/*
 * The stored settings passed the platform's SiteCustomizationSettings schema when they were saved,
 * so the required parts are there; what the schema leaves optional reads as null.
 */
type Part = Record<string, unknown> | undefined;
const part = (o: unknown, key: string): Part => (o && typeof o === 'object' ? ((o as Record<string, unknown>)[key] as Part) : undefined);
const text = (o: unknown, key: string): string | null => {
  const v = part(o, key);
  return typeof v === 'string' ? v : null;
};
const flag = (o: unknown, key: string): boolean | null => {
  const v = part(o, key);
  return typeof v === 'boolean' ? v : null;
};

interface ThemedColor {
  light: string;
  dark: string;
}

const ThemedColorRef = builder.objectRef<ThemedColor>('SiteCustomizationColor').implement({
  description: 'A color for the light and the dark theme, as `#RRGGBB`.',
  fields: (t) => ({
    light: t.exposeString('light', { description: 'In the light theme.' }),
    dark: t.exposeString('dark', { description: 'In the dark theme.' }),
  }),
});

const color = (o: unknown): ThemedColor | null => {
  const light = text(o, 'light');
  const dark = text(o, 'dark');
  return light && dark ? { light, dark } : null;
};

const StylingRef = builder.objectRef<Record<string, unknown>>('SiteCustomizationStyling').implement({
  description: "The look of a site: the platform's `styling` settings.",
  fields: (t) => ({
    theme: t.string({ nullable: true, description: 'The theme: clean, muted, bold or gradient.', resolve: (s) => text(s, 'theme') }),
    primaryColor: t.field({ type: ThemedColorRef, nullable: true, description: 'The primary color.', resolve: (s) => color(part(s, 'primaryColor')) }),
    tint: t.field({ type: ThemedColorRef, nullable: true, description: 'The tint color; null without a tint.', resolve: (s) => color(part(part(s, 'tint'), 'color')) }),
    corners: t.string({ nullable: true, description: 'Corners of elements: straight, rounded or circular.', resolve: (s) => text(s, 'corners') }),
    depth: t.string({ nullable: true, description: 'Visual depth: subtle or flat.', resolve: (s) => text(s, 'depth') }),
    links: t.string({ nullable: true, description: 'How links are styled: default or accent.', resolve: (s) => text(s, 'links') }),
    font: t.string({ nullable: true, description: 'The name of the platform font; null for a custom font (see `settings`).', resolve: (s) => text(s, 'font') }),
    monospaceFont: t.string({ nullable: true, description: 'The name of the monospace font; null for a custom one.', resolve: (s) => text(s, 'monospaceFont') }),
    icons: t.string({ nullable: true, description: 'The style of icons.', resolve: (s) => text(s, 'icons') }),
    search: t.string({ nullable: true, description: 'The style of the search bar: subtle or prominent.', resolve: (s) => text(s, 'search') }),
  }),
});

SiteCustomizationRef.implement({
  description:
    "How a published site looks and behaves: the platform's SiteCustomizationSettings. The common parts are typed fields; `settings` holds the whole document, " +
    'as `GET /v1/orgs/{organizationId}/sites/{siteId}/customization` answers it.',
  fields: (t) => ({
    settings: t.field({ type: 'JSON', description: 'The whole SiteCustomizationSettings document.', resolve: (c) => c }),
    title: t.string({ nullable: true, description: 'The title shown instead of the site title; null for the site title.', resolve: (c) => text(c, 'title') }),
    styling: t.field({ type: StylingRef, description: 'Theme, colors, corners and fonts.', resolve: (c) => part(c, 'styling') ?? {} }),
    locale: t.string({ nullable: true, description: 'The language of the interface (en, fr, de, ...).', resolve: (c) => text(part(c, 'internationalization'), 'locale') }),
    defaultThemeMode: t.string({ nullable: true, description: 'The theme readers see first: light or dark.', resolve: (c) => text(part(c, 'themes'), 'default') }),
    themeToggle: t.boolean({ nullable: true, description: 'Whether readers may switch between light and dark.', resolve: (c) => flag(part(c, 'themes'), 'toggeable') }),
    aiMode: t.string({ nullable: true, description: 'What AI offers readers: none, search or assistant.', resolve: (c) => text(part(c, 'ai'), 'mode') }),
    pdfExport: t.boolean({ nullable: true, description: 'Whether readers may export pages as PDF.', resolve: (c) => flag(part(c, 'pdf'), 'enabled') }),
    feedback: t.boolean({ nullable: true, description: 'Whether pages ask readers for feedback.', resolve: (c) => flag(part(c, 'feedback'), 'enabled') }),
    pagination: t.boolean({ nullable: true, description: 'Whether pages link to the previous and the next page.', resolve: (c) => flag(part(c, 'pagination'), 'enabled') }),
    trademark: t.boolean({ nullable: true, description: "Whether the platform's trademark is shown.", resolve: (c) => flag(part(c, 'trademark'), 'enabled') }),
    showEditLink: t.boolean({ nullable: true, description: 'Whether pages link to their source in Git.', resolve: (c) => flag(part(c, 'git'), 'showEditLink') }),
  }),
});

SitePublishingAuthRef.implement({
  description: 'How visitors of a `visitor-auth` site sign in: the secret key their tokens are signed with, and where they are sent to sign in.',
  fields: (t) => ({
    backend: t.field({ type: PublishingAuthBackendEnum, description: 'What signs visitors in.', resolve: (a) => a.backend }),
    privateKey: t.exposeString('privateKey', { description: 'The secret that signs visitor tokens (HS256). Anyone holding it can let visitors in.' }),
    fallbackUrl: t.exposeString('fallbackUrl', { nullable: true, description: 'Where a visitor without a valid token is sent to sign in; null when not set.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the settings or the key last changed.' }),
  }),
});

builder.objectFields(SiteRef, (t) => ({
  customization: t.field({
    type: SiteCustomizationRef,
    description: 'How it looks and behaves once published; the defaults until it is saved. Anyone who can see the site may read it.',
    resolve: (s, _, ctx) => getCustomization(ctx, s.organizationId, s.id) as Promise<Customization>,
  }),
  publishingAuth: t.field({
    type: SitePublishingAuthRef,
    nullable: true,
    description:
      'Its visitor sign-in settings and key, made with a fresh key when first read. A secret: only for those who manage the site; others get a FORBIDDEN error here.',
    resolve: (s, _, ctx) => getPublishingAuth(ctx, s.organizationId, s.id),
  }),
}));
