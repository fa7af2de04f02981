export * from './analyzer.ts';
export { createLambdaAnalyzer } from './analyzers/lambda-analyzer.ts';
export * from './app.ts';
export * from './deps.ts';
export { ApiError, ERROR_STATUS, type ErrorCode, type ErrorEnvelope } from './http/api-error.ts';
export * from './services/api-keys.ts';
export * from './services/review.ts';
export * from './services/sessions.ts';
