export * from './build.ts';
export * from './check-digit.ts';
export * from './chip-key.ts';
export * from './countries.ts';
export * from './layout.ts';
export * from './names.ts';
export * from './parse.ts';
