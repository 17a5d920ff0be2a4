import { builder } from '../../../graphql/builder';
import type { InstallationRow } from '../../../db/schema/installations';
import type { IntegrationEventRow } from '../../../db/schema/integration-events';

export const InstallationRef = builder.objectRef<InstallationRow>('IntegrationInstallation');
export const IntegrationEventRef = builder.objectRef<IntegrationEventRow>('IntegrationEvent');

export const SelectionEnum = builder.enumType('IntegrationSelection', {
  description: 'Which spaces (or sites) of its organization an installation acts on.',
  values: {
    ALL: { value: 'all' as const, description: 'Every one.' },
    SELECTED: { value: 'selected' as const, description: 'Only those it was given.' },
  },
});
