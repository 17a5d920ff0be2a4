import './types';
import './mutations';
import './placement';
