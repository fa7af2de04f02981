export * from './analyzer.ts';
export { analyzeFaces, calibrate, FACERES_CALIBRATION } from './faces/index.ts';
export * from './image/normalize.ts';
export { readMrzOnly } from './mrz/read.ts';
export { precheck } from './precheck/precheck.ts';
export { assessSharpness } from './quality/sharpness.ts';
export { type DocumentReading, readDocument, warmUp } from './read-document.ts';
export * from './runtime/onnx.ts';
export { decisionCounts, type ProfileEvent, startProfile, stopProfile } from './runtime/profile.ts';
export {
  AnalysisWorkerError,
  createWorkerAnalyzer,
  type WorkerAnalyzer,
  type WorkerAnalyzerOptions,
} from './runtime/worker-analyzer.ts';
export { inProcessAnalyzer, precheckImage, readMrzLines } from './session-helpers.ts';
export { detectTamper, severityFor, TAMPER_SIGNS } from './tamper/index.ts';
