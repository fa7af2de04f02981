export * from './build.ts';
export * from './checkDigit.ts';
export * from './chipKey.ts';
export * from './countries.ts';
export * from './layout.ts';
export * from './names.ts';
export * from './parse.ts';
