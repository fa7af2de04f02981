export * from './dates.ts';
export * from './errors.ts';
export * from './ids.ts';
export * from './judge/index.ts';
export * from './mrz/index.ts';
export * from './observations.ts';
export * from './scoring.ts';
export * from './verification.ts';
