import './mutations';
