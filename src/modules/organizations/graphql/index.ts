import './types';
import './queries';
import './mutations';
