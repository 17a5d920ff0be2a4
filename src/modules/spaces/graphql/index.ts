import './types';
import './mutations';
import './placement';
import './member-spaces';
