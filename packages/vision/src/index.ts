export * from './analyzer.ts';
export { analyzeFaces, calibrate, FACERES_CALIBRATION } from './faces/index.ts';
export * from './image/normalize.ts';
export { readMrzOnly } from './mrz/read.ts';
export { type PrecheckIssue, precheck } from './precheck/precheck.ts';
export { assessSharpness } from './quality/sharpness.ts';
export { type DocumentReading, readDocument, warmUp } from './read-document.ts';
export * from './runtime/onnx.ts';
export { detectTamper, severityFor, TAMPER_SIGNS } from './tamper/index.ts';
