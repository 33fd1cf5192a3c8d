import './theme.css';
export * from './theme';
