/**
 * Bump when the build-time converter's output changes (packages/vision/build/convert: a fix, a
 * new op lowering): the model cache's file names key on it, so the build step converts again
 * and the service never loads a conversion from an older converter.
 */
export const CONVERTER_VERSION = 'tfjs-onnx-1';

/** Same role for the face-api ResNet graph built by face-recognition-net.ts. */
export const FACE_RECOGNITION_NET_VERSION = 'faceapi-resnet-1';
