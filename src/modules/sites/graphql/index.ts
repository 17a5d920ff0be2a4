import './types';
import './mutations';
import './readers';
import './redirects';
import './search';
