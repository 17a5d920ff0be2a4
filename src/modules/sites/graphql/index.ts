import './types';
import './mutations';
import './readers';
