export * from './image/normalize.ts';
export * from './runtime/onnx.ts';
