import { encodeModel } from './onnx-proto.ts';
import { type ConvertOptions, convertGraph } from './tf-to-onnx.ts';
import { readTfjsGraph } from './tfjs-graph.ts';

export { convertGraph, graphOutputs } from './tf-to-onnx.ts';
export { parseTfjsGraph, readTfjsGraph } from './tfjs-graph.ts';

/** Converts a TF.js graph model (model.json + shards) to ONNX model bytes. */
export async function convertTfjsModel(
  modelJsonPath: string,
  options: ConvertOptions = {},
): Promise<Uint8Array> {
  const graph = await readTfjsGraph(modelJsonPath);
  return encodeModel(convertGraph(graph, options));
}
