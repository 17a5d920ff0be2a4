import './types';
import './mutations';
import './search';
