import type { NewPage } from '../../domain/content';

/** The built-in templates: small page trees a new space can start from. */
export const TEMPLATES: Record<string, { title: string; pages: NewPage[] }> = {
  'product-docs': {
    title: 'Product documentation',
    pages: [
      { title: 'Introduction', markdown: '# Introduction\n\nWhat the product does, and for whom.\n\nNext: [Quickstart](/quickstart).\n' },
      { title: 'Quickstart', markdown: '# Quickstart\n\n1. Create an account.\n2. Install the product.\n3. Run your first task.\n' },
      {
        type: 'group',
        title: 'Guides',
        children: [
          { title: 'Configuration', markdown: '# Configuration\n\nEvery setting, its default and when to change it.\n' },
          { title: 'Troubleshooting', markdown: '# Troubleshooting\n\nCommon problems and their fixes.\n' },
        ],
      },
      { title: 'FAQ', markdown: '# FAQ\n\n## Is there a free plan?\n\nDescribe it here.\n' },
    ],
  },
  'api-reference': {
    title: 'API reference',
    pages: [
      { title: 'Overview', markdown: '# Overview\n\nBase URL, versioning and the shape of every answer.\n' },
      { title: 'Authentication', markdown: '# Authentication\n\nSend `Authorization: Bearer <token>` with every request.\n' },
      { title: 'Errors', markdown: '# Errors\n\n| Status | Meaning |\n| --- | --- |\n| 400 | Bad input |\n| 401 | No or bad token |\n| 404 | Not found |\n' },
      {
        type: 'group',
        title: 'Endpoints',
        children: [
          { title: 'List items', markdown: '# List items\n\n```http\nGET /v1/items\n```\n' },
          { title: 'Create an item', markdown: '# Create an item\n\n```http\nPOST /v1/items\n```\n' },
        ],
      },
    ],
  },
  'team-handbook': {
    title: 'Team handbook',
    pages: [
      { title: 'Welcome', markdown: '# Welcome\n\nWho we are and how we work.\n' },
      { title: 'Onboarding', markdown: '# Onboarding\n\n- [ ] Accounts\n- [ ] First week plan\n- [ ] Meet the team\n' },
      { title: 'How we work', markdown: '# How we work\n\nMeetings, writing things down, making decisions.\n' },
      { title: 'Time off', markdown: '# Time off\n\nHow to ask for it and who covers for you.\n' },
    ],
  },
};
