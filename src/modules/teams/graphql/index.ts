import './types';
import './mutations';
import './member-teams';
