import { bigList } from './big-list';
import { floor } from './floor';
import { changeRequestList } from './change-requests';
import { commentList } from './comments';
import { nestedDiscussions } from './nested';
import { dashboard, review } from './screens';
import { contentPages, organizationSearch, spaceSearch } from './content';
import type { BenchShape } from './shape';
import { small } from './small';
import { translationList } from './translations';
import { twoLevel } from './two-level';
import { twoLevelReader } from './two-level-reader';

/** Every shape `npm run bench` measures, in the order of its table. */
export const SHAPES: BenchShape[] = [floor, twoLevel, twoLevelReader, small, bigList, contentPages, spaceSearch, organizationSearch, changeRequestList, commentList, nestedDiscussions, dashboard, review, translationList];
