import './types';
import './mutations';
import './subscriptions';
import './semantic-changes';
