import './types';
import './mutations';
import './content-installations';
