import './types';
import './mutations';
import './search';
import './subscriptions';
