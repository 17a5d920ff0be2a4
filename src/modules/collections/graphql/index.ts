import './types';
import './mutations';
