import './types';
import './mutations';
import './subscriptions';
