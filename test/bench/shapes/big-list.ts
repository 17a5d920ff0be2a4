import { BIG_ORG } from '../data';
import type { BenchShape } from './shape';
import { twoLevel } from './two-level';

/** The 2-level shape on the organization of 100,000 spaces: a page must cost what it costs at 100. */
export const bigList: BenchShape = {
  ...twoLevel,
  name: '2-level, 100k org',
  description: 'the 2-level shape on an organization of 100,000 spaces',
  organizations: [BIG_ORG],
};
