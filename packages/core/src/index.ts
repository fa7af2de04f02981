export * from './errors.ts';
export * from './ids.ts';
export * from './observations.ts';
