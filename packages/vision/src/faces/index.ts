export { analyzeFaces, type FaceAnalysis } from './analyze.ts';
export { calibrate, FACERES_CALIBRATION, fitCalibration } from './calibration.ts';
export { detectDocumentFaces, detectSelfieFaces, type FaceBox } from './detect.ts';
export { cosine, embedFace } from './embed.ts';
