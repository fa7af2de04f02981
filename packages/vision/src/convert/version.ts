/**
 * Bump when the converter's output changes (a fix, a new op lowering): the model cache keys on
 * it, so converted models from an older converter are rebuilt instead of reused.
 */
export const CONVERTER_VERSION = 'tfjs-onnx-1';

/** Same role for the face-api ResNet graph built by face-recognition-net.ts. */
export const FACE_RECOGNITION_NET_VERSION = 'faceapi-resnet-1';
