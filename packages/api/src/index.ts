export * from './analyzer.ts';
export { createLambdaAnalyzer } from './analyzers/lambda-analyzer.ts';
export type { RemoteAnalysisRequest, RemoteAnalysisResponse } from './analyzers/remote-protocol.ts';
export * from './app.ts';
export * from './deps.ts';
export { purgeExpiredImages } from './services/purge.ts';
