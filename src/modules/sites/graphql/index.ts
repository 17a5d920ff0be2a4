import './types';
import './mutations';
import './readers';
import './search';
