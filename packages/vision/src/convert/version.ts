/**
 * Bump when the converter's output changes (a fix, a new op lowering): the model cache keys on
 * it, so converted models from an older converter are rebuilt instead of reused.
 */
export const CONVERTER_VERSION = 'tfjs-onnx-1';
