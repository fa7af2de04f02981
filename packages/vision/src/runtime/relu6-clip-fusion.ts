import { editedModel, openGraph } from './graph-edit.ts';
import { constantScalar, type Node, nodeField } from './onnx-nodes.ts';
import { fieldText, type ProtoField, readFields } from './proto-fields.ts';

/**
 * The face embedding (HSE FaceRes, a MobileNet converted from TensorFlow) spells each ReLU6 as
 * three passes, Relu → Min(6) → Max(0) (TensorFlow's clip_by_value after a Relu). onnxruntime
 * fuses the convolution with its bias and the Relu, but not the Min and Max: they leave the
 * blocked (NCHWc) layout it runs the convolutions in, so each of the 27 costs two element-wise
 * passes and two layout conversions. One Clip(0, hi) is the same function (max(min(max(x, 0), hi), 0)
 * = min(max(x, 0), hi) for hi ≥ 0), and onnxruntime fuses a Clip into the convolution before it.
 *
 * Clip's bounds are inputs from opset 11: the Min's and Max's own scalar constants (initializers
 * or Constant nodes) are reused. Anything not exactly of that shape is left as it is.
 */
export function fuseRelu6(model: Uint8Array): { bytes: Uint8Array; fused: number } {
  const edit = openGraph(model);
  if (!edit) return { bytes: model, fused: 0 };
  const { top, graph, nodes, producer, replaced, dropped } = edit;
  const only = edit.soleReader;
  const initializers = scalarInitializers(graph);
  const scalar = (name: string) => {
    const p = producer.get(name);
    return p ? constantScalar(p) : (initializers.get(name) ?? null);
  };
  /** The other input of a two-input node when it is a scalar constant: [its name, its value]. */
  const scalarBeside = (n: Node, value: string): [string, number] | null => {
    if (n.inputs.length !== 2) return null;
    const other = n.inputs[0] === value ? n.inputs[1]! : n.inputs[0]!;
    const v = other !== value ? scalar(other) : null;
    return v === null ? null : [other, v];
  };
  if (!opsetAtLeast(top, 11)) return { bytes: model, fused: 0 };
  let fused = 0;
  for (const relu of nodes) {
    if (relu.op !== 'Relu' || relu.inputs.length !== 1) continue;
    const min = only(relu.outputs[0]!);
    if (min?.op !== 'Min') continue;
    const hi = scalarBeside(min, relu.outputs[0]!);
    const max = only(min.outputs[0]!);
    if (!hi || !(hi[1] >= 0) || max?.op !== 'Max') continue;
    const lo = scalarBeside(max, min.outputs[0]!);
    if (lo?.[1] !== 0) continue;
    const out = max.outputs[0]!;
    replaced.set(relu, [nodeField('Clip', `${out}__relu6`, [relu.inputs[0]!, lo[0], hi[0]], [out])]);
    dropped.add(min).add(max);
    fused++;
  }
  if (fused === 0) return { bytes: model, fused: 0 };
  return { bytes: editedModel(edit), fused };
}

// ONNX field numbers (onnx.proto).
const GRAPH_INITIALIZER = 5;
const TENSOR_DIMS = 1;
const TENSOR_DATA_TYPE = 2;
const TENSOR_FLOAT_DATA = 4;
const TENSOR_NAME = 8;
const TENSOR_RAW_DATA = 9;
const MODEL_OPSET_IMPORT = 8;
const OPSET_DOMAIN = 1;
const OPSET_VERSION = 2;
const FLOAT = 1n;

/** The graph's float initializers that hold a single value (of any shape with one element). */
function scalarInitializers(graph: readonly ProtoField[]): Map<string, number> {
  const values = new Map<string, number>();
  for (const f of graph.filter((g) => g.no === GRAPH_INITIALIZER)) {
    const t = readFields(f.bytes!);
    const name = t.find((x) => x.no === TENSOR_NAME);
    if (!name || t.find((x) => x.no === TENSOR_DATA_TYPE)?.int !== FLOAT) continue;
    // One element: every dim is 1 (varint fields, or packed: bytes of 0x01), or no dims at all.
    const dims = t.filter((x) => x.no === TENSOR_DIMS);
    if (dims.some((x) => (x.bytes ? x.bytes.some((b) => b !== 1) : x.int !== 1n))) continue;
    const data = t.find((x) => x.no === TENSOR_RAW_DATA) ?? t.find((x) => x.no === TENSOR_FLOAT_DATA);
    if (data?.bytes?.length !== 4) continue;
    values.set(
      fieldText(name),
      new DataView(data.bytes.buffer, data.bytes.byteOffset, 4).getFloat32(0, true),
    );
  }
  return values;
}

/** Whether the model's default-domain opset is at least `version` (Clip takes its bounds as inputs from 11). */
function opsetAtLeast(top: readonly ProtoField[], version: number): boolean {
  for (const f of top.filter((x) => x.no === MODEL_OPSET_IMPORT)) {
    const o = readFields(f.bytes!);
    const domain = o.find((x) => x.no === OPSET_DOMAIN);
    if (!domain || fieldText(domain) === '' || fieldText(domain) === 'ai.onnx') {
      return (o.find((x) => x.no === OPSET_VERSION)?.int ?? 0n) >= BigInt(version);
    }
  }
  return false;
}
