import { createHash } from 'node:crypto';

// A writer for GGUF version 3 files, following the public format description in the ggml
// repository (docs/gguf.md): little-endian; magic, version, tensor count, metadata count; the
// metadata key/value pairs; one info record per tensor (name, dimensions, type, offset); padding
// to the alignment; then the tensor data, each tensor starting at a multiple of the alignment.
// It writes what the test fixtures need (scalars, strings, arrays, f32 tensors), nothing more.

/** Metadata value types, numbered as in the format. */
const VALUE_TYPE = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
} as const;

/** The scalar types an array of numbers may hold. */
export type GgufNumberType = 'uint8' | 'int8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';

/** One metadata value with its GGUF type. */
export type GgufValue =
  | { type: GgufNumberType; value: number }
  | { type: 'uint64'; value: bigint }
  | { type: 'int64'; value: bigint }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'array'; itemType: GgufNumberType; values: readonly number[] }
  | { type: 'array'; itemType: 'string'; values: readonly string[] };

/** ggml's id of the one tensor type this writer encodes, 32-bit floats. */
const GGML_TYPE_F32 = 0;

/**
 * One f32 tensor. `dims` are in ggml order: the first dimension varies fastest (a matrix of
 * `rows` rows of `columns` values each is `[columns, rows]`); `data` holds the values in that order.
 */
export type GgufTensor = { name: string; dims: readonly number[]; data: Float32Array };

/** Options of `writeGguf`. */
export type WriteGgufOptions = {
  metadata: Readonly<Record<string, GgufValue>>;
  tensors: readonly GgufTensor[];
  /** `general.alignment`; the format's default is 32. Written into the metadata when not 32. */
  alignment?: number;
};

/** A growable little-endian byte buffer. */
class ByteWriter {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + bytes) size *= 2;
    const next = Buffer.alloc(size);
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  number(type: GgufNumberType, value: number): void {
    const sizes: Record<GgufNumberType, number> = {
      uint8: 1,
      int8: 1,
      uint16: 2,
      int16: 2,
      uint32: 4,
      int32: 4,
      float32: 4,
      float64: 8,
    };
    this.reserve(sizes[type]);
    const at = this.length;
    if (type === 'uint8') this.buffer.writeUInt8(value, at);
    else if (type === 'int8') this.buffer.writeInt8(value, at);
    else if (type === 'uint16') this.buffer.writeUInt16LE(value, at);
    else if (type === 'int16') this.buffer.writeInt16LE(value, at);
    else if (type === 'uint32') this.buffer.writeUInt32LE(value, at);
    else if (type === 'int32') this.buffer.writeInt32LE(value, at);
    else if (type === 'float32') this.buffer.writeFloatLE(value, at);
    else this.buffer.writeDoubleLE(value, at);
    this.length += sizes[type];
  }

  u32(value: number): void {
    this.number('uint32', value);
  }

  u64(value: number | bigint): void {
    this.reserve(8);
    this.buffer.writeBigUInt64LE(BigInt(value), this.length);
    this.length += 8;
  }

  i64(value: bigint): void {
    this.reserve(8);
    this.buffer.writeBigInt64LE(value, this.length);
    this.length += 8;
  }

  bytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** A GGUF string: its UTF-8 byte length as uint64, then the bytes (no terminator). */
  string(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    this.u64(bytes.length);
    this.bytes(bytes);
  }

  padTo(alignment: number): void {
    const padding = (alignment - (this.length % alignment)) % alignment;
    this.bytes(new Uint8Array(padding));
  }

  result(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(out: ByteWriter, value: GgufValue): void {
  out.u32(VALUE_TYPE[value.type]);
  if (value.type === 'string') out.string(value.value);
  else if (value.type === 'bool') out.number('uint8', value.value ? 1 : 0);
  else if (value.type === 'uint64') out.u64(value.value);
  else if (value.type === 'int64') out.i64(value.value);
  else if (value.type === 'array') {
    out.u32(VALUE_TYPE[value.itemType]);
    out.u64(value.values.length);
    if (value.itemType === 'string') for (const item of value.values) out.string(item);
    else for (const item of value.values) out.number(value.itemType, item);
  } else out.number(value.type, value.value);
}

function tensorBytes(tensor: GgufTensor): Uint8Array {
  const count = tensor.dims.reduce((product, dim) => product * dim, 1);
  if (tensor.data.length !== count) {
    throw new Error(`tensor ${tensor.name}: ${tensor.data.length} values for dims [${tensor.dims.join(', ')}]`);
  }
  const copy = new Float32Array(tensor.data);
  return new Uint8Array(copy.buffer);
}

/**
 * Encodes a GGUF v3 file. Tensors are laid out in the order given, each at the next multiple
 * of the alignment. Throws on a tensor whose data does not match its dimensions.
 */
export function writeGguf({ metadata, tensors, alignment = 32 }: WriteGgufOptions): Buffer {
  const entries: Array<[string, GgufValue]> = Object.entries(metadata);
  if (alignment !== 32 && metadata['general.alignment'] === undefined) {
    entries.push(['general.alignment', { type: 'uint32', value: alignment }]);
  }
  const out = new ByteWriter();
  out.bytes(Buffer.from('GGUF', 'ascii'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(entries.length);
  for (const [key, value] of entries) {
    out.string(key);
    writeValue(out, value);
  }
  const encoded = tensors.map(tensorBytes);
  let offset = 0;
  tensors.forEach((tensor, index) => {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_TYPE_F32);
    out.u64(offset);
    offset += encoded[index]!.length;
    offset += (alignment - (offset % alignment)) % alignment;
  });
  out.padTo(alignment);
  for (const bytes of encoded) {
    out.bytes(bytes);
    out.padTo(alignment);
  }
  return out.result();
}

/** A short stable digest, for cache keys of generated fixtures. */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}
