import './types';
import './mutations';
import './search';
import './links';
import './import';
