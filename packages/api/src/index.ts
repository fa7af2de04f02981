export * from './app.ts';
export * from './deps.ts';
