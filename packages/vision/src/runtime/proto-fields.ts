/**
 * Protobuf wire format, read and written field by field without a schema: enough to edit an
 * ONNX model's graph (onnx-graph-edit.ts) while every field it does not touch goes back out
 * byte for byte.
 */

export interface ProtoField {
  /** Field number. */
  no: number;
  /** Wire type: 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32. */
  wire: number;
  /** Varint value (wire 0). */
  int?: bigint;
  /** Raw payload: the bytes of a length-delimited field, or the 8/4 bytes of a fixed one. */
  bytes?: Uint8Array;
}

function readVarint(buf: Uint8Array, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  let p = pos;
  for (;;) {
    const b = buf[p++];
    if (b === undefined) throw new Error('protobuf: truncated varint');
    result |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) return [result, p];
    shift += 7n;
  }
}

/** The fields of one message, in order. */
export function readFields(buf: Uint8Array): ProtoField[] {
  const fields: ProtoField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, p] = readVarint(buf, pos);
    pos = p;
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [v, q] = readVarint(buf, pos);
      fields.push({ no, wire, int: v });
      pos = q;
    } else if (wire === 2) {
      const [len, q] = readVarint(buf, pos);
      const end = q + Number(len);
      if (end > buf.length) throw new Error('protobuf: truncated field');
      fields.push({ no, wire, bytes: buf.subarray(q, end) });
      pos = end;
    } else if (wire === 1 || wire === 5) {
      const n = wire === 1 ? 8 : 4;
      fields.push({ no, wire, bytes: buf.subarray(pos, pos + n) });
      pos += n;
    } else {
      throw new Error(`protobuf: unsupported wire type ${wire}`);
    }
  }
  return fields;
}

function varintBytes(value: bigint, out: number[]): void {
  let v = BigInt.asUintN(64, value);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

/** Encodes fields back into one message. */
export function writeFields(fields: readonly ProtoField[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const f of fields) {
    const head: number[] = [];
    varintBytes(BigInt((f.no << 3) | f.wire), head);
    if (f.wire === 0) varintBytes(f.int ?? 0n, head);
    else if (f.wire === 2) varintBytes(BigInt(f.bytes!.length), head);
    const h = Uint8Array.from(head);
    parts.push(h);
    size += h.length;
    if (f.wire !== 0) {
      parts.push(f.bytes!);
      size += f.bytes!.length;
    }
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** A length-delimited field as text. */
export function fieldText(f: ProtoField): string {
  return utf8.decode(f.bytes!);
}

/** A string field. */
export function textField(no: number, text: string): ProtoField {
  return { no, wire: 2, bytes: encoder.encode(text) };
}

/** The integers of a repeated int field: one varint field, or a packed run of varints. */
export function varints(f: ProtoField): bigint[] {
  if (f.wire === 0) return [f.int ?? 0n];
  const values: bigint[] = [];
  for (let pos = 0; f.bytes && pos < f.bytes.length; ) {
    const [v, p] = readVarint(f.bytes, pos);
    values.push(v);
    pos = p;
  }
  return values;
}
