import './types';
import './mutations';
import './subscriptions';
import './commenters';
