export * from './analyzer.ts';
export * from './app.ts';
export * from './deps.ts';
export { purgeExpiredImages } from './services/purge.ts';
