import './types';
import './mutations';
import './sso-logins';
