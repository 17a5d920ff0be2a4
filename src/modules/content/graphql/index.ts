import './types';
import './mutations';
import './search';
import './subscriptions';
import './links';
import './import';
import './changes';
import './documents';
