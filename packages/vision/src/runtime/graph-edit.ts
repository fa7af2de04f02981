import { GRAPH_NODE, graphIndex, MODEL_GRAPH, type Node, parseNode } from './onnx-nodes.ts';
import { type ProtoField, readFields, writeFields } from './proto-fields.ts';

/**
 * An ONNX model opened for an edit that rewrites a few nodes and keeps every other byte: what the
 * graph rewrites at load (hardswish-fusion.ts, conv-affine-fold.ts, affine-into-conv.ts,
 * relu6-clip-fusion.ts) share. A rewrite finds its pattern with `producer` and `soleReader`,
 * records each matched node's replacement in `replaced` (one or several node fields) and the
 * nodes it absorbs in `dropped`, then asks `editedModel` for the bytes.
 */
export interface GraphEdit {
  top: ProtoField[];
  graphField: ProtoField;
  graph: ProtoField[];
  nodes: Node[];
  /** The node writing each value. */
  producer: Map<string, Node>;
  /** How many nodes (and graph outputs) read each value. */
  consumers: Map<string, number>;
  /** The node reading `value` when it is its only reader (a graph output counts as a reader). */
  soleReader(value: string): Node | undefined;
  replaced: Map<Node, ProtoField[]>;
  dropped: Set<Node>;
}

/** The model's graph parsed for an edit, or null when the bytes hold no graph. */
export function openGraph(model: Uint8Array): GraphEdit | null {
  const top = readFields(model);
  const graphField = top.find((f) => f.no === MODEL_GRAPH);
  if (!graphField) return null;
  const graph = readFields(graphField.bytes!);
  const nodes = graph.filter((f) => f.no === GRAPH_NODE).map(parseNode);
  const { producer, consumers } = graphIndex(graph, nodes);
  const readers = new Map<string, Node[]>();
  for (const n of nodes) for (const i of n.inputs) readers.set(i, [...(readers.get(i) ?? []), n]);
  return {
    top,
    graphField,
    graph,
    nodes,
    producer,
    consumers,
    soleReader: (value) => (consumers.get(value) === 1 ? readers.get(value)?.[0] : undefined),
    replaced: new Map(),
    dropped: new Set(),
  };
}

/**
 * The model's bytes with the recorded replacements and drops, every other field as it was, each
 * replacement in its node's place (node order is the graph's topological order). Constant nodes
 * that no remaining node reads any more go too: onnxruntime warns about every unused one when it
 * loads the model.
 */
export function editedModel(edit: GraphEdit): Uint8Array {
  const { top, graphField, graph, nodes, consumers, replaced, dropped } = edit;
  const used = new Set<string>();
  for (const n of nodes) if (!dropped.has(n) && !replaced.has(n)) for (const i of n.inputs) used.add(i);
  for (const fields of replaced.values())
    for (const f of fields) for (const i of parseNode(f).inputs) used.add(i);
  const unusedConstant = (n: Node) =>
    n.op === 'Constant' && n.outputs.every((o) => !used.has(o) && consumers.has(o));
  const byField = new Map(nodes.map((n) => [n.field, n]));
  const newGraph: ProtoField[] = [];
  for (const f of graph) {
    const n = byField.get(f);
    if (!n) newGraph.push(f);
    else if (replaced.has(n)) newGraph.push(...replaced.get(n)!);
    else if (!dropped.has(n) && !unusedConstant(n)) newGraph.push(f);
  }
  return writeFields(top.map((f) => (f === graphField ? { ...f, bytes: writeFields(newGraph) } : f)));
}
