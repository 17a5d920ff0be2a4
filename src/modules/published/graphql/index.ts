import './types';
import './mutations';
import './lookup';
