import './types';
import './mutations';
import './commenters';
