import './types';
