import type { NewPage } from '../../domain/content';

/** What a site made with `spaces: "sample"` starts with: a small, real set of pages to edit. */
export const SAMPLE_PAGES: NewPage[] = [
  {
    title: 'Welcome',
    markdown: '# Welcome\n\nThis site was created with sample content. Edit these pages or replace them.\n\nStart with [the quickstart](quickstart).',
  },
  {
    title: 'Quickstart',
    markdown: '# Quickstart\n\n1. Create an API token.\n2. Call the API:\n\n```sh\ncurl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/user\n```\n',
  },
  {
    title: 'Reference',
    type: 'group',
    children: [{ title: 'Settings', markdown: '| Setting | Meaning |\n| --- | --- |\n| `PORT` | Where the server listens |\n' }],
  },
];
