import './mutations';
import './queries';
