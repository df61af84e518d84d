/**
 * Scores every row of a row-major float32 matrix against one query: `out[row]` is the dot product,
 * summed in double precision in the order `scoreRowsInJs` sums it. Both live in one memory: a
 * WebAssembly memory for the SIMD kernel, or plain typed arrays for the JavaScript one.
 */
export type DotProductKernel = {
  /** Whether the WebAssembly SIMD kernel scores (else the JavaScript loop, same scores). */
  readonly simd: boolean;
  /** The matrix, `capacity × dimension` numbers; fill it before scoring. */
  readonly values: Float32Array;
  /**
   * The scores of the first `rows` rows against `query` (length `dimension`), in a Float64Array
   * the kernel reuses: read it before the next call.
   */
  score(query: Float32Array, rows: number): Float64Array;
};

/**
 * The reference scoring loop: four double-precision accumulators over slots 0,1,2,3 mod 4, the
 * tail (dimension mod 4) added to the first, summed as (s0 + s1) + (s2 + s3). A float32 times a
 * float32 is exact in double precision, so only the additions round, in this fixed order.
 */
export function scoreRowsInJs({
  values,
  dimension,
  rows,
  query,
  out,
}: {
  values: Float32Array;
  dimension: number;
  rows: number;
  query: Float32Array;
  out: Float64Array;
}): void {
  const q = Float64Array.from(query);
  const unrolled = dimension - (dimension % 4);
  for (let row = 0, cell = 0; row < rows; row++) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let slot = 0;
    for (; slot < unrolled; slot += 4, cell += 4) {
      s0 += values[cell]! * q[slot]!;
      s1 += values[cell + 1]! * q[slot + 1]!;
      s2 += values[cell + 2]! * q[slot + 2]!;
      s3 += values[cell + 3]! * q[slot + 3]!;
    }
    for (; slot < dimension; slot++, cell++) s0 += values[cell]! * q[slot]!;
    out[row] = s0 + s1 + (s2 + s3);
  }
}

// The kernel, assembled here rather than shipped as an opaque binary. Parameters: values, rows,
// dimension, query (float64), out (float64), all byte addresses. Per four slots: one 128-bit load,
// both halves widened to f64x2, multiplied by the query and added to two f64x2 accumulators, which
// are exactly (s0, s1) and (s2, s3) of `scoreRowsInJs`; so the scores are bit-identical to it.
const I32 = 0x7f;
const F64 = 0x7c;
const V128 = 0x7b;
const [VALUES, ROWS, DIMENSION, QUERY, OUT, END, QP, ROW_END, UNROLLED_BYTES, TAIL_BYTES, A, B, X, S0] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
];
const get = (local: number) => [0x20, local];
const set = (local: number) => [0x21, local];
const simd = (opcode: number) => [0xfd, ...unsignedLeb(opcode)];
const memarg = (align: number, offset = 0) => [align, ...unsignedLeb(offset)];
const zeroV128 = [...simd(0x0c), ...new Array<number>(16).fill(0)];
const F64X2_ADD = 0xf0;
const F64X2_MUL = 0xf2;
const F64X2_PROMOTE_LOW_F32X4 = 0x5f;
const F64X2_EXTRACT_LANE = 0x21;
const I8X16_SHUFFLE = 0x0d;
const V128_LOAD = 0x00;
const HIGH_HALF_FIRST = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];

function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value >>> 0;
  do {
    const byte = rest & 0x7f;
    rest >>>= 7;
    bytes.push(rest === 0 ? byte : byte | 0x80);
  } while (rest !== 0);
  return bytes;
}
const i32Const = (value: number) => [0x41, value & 0x7f]; // small non-negative constants only (< 64)
const name = (text: string) => [text.length, ...Buffer.from(text, 'ascii')];
const section = (id: number, body: number[]) => [id, ...unsignedLeb(body.length), ...body];
const add = (local: number, amount: number) => [...get(local), ...i32Const(amount), 0x6a, ...set(local)];

function kernelBody(): number[] {
  const mulAdd = (accumulator: number, widened: number[], queryOffset: number) => [
    ...get(accumulator),
    ...widened,
    ...get(QP),
    ...simd(V128_LOAD),
    ...memarg(3, queryOffset),
    ...simd(F64X2_MUL),
    ...simd(F64X2_ADD),
    ...set(accumulator),
  ];
  const lane = (vector: number, index: number) => [...get(vector), ...simd(F64X2_EXTRACT_LANE), index];
  const code = [
    // unrolledBytes = (dimension & ~3) * 4; tailBytes = (dimension & 3) * 4
    ...get(DIMENSION),
    0x41,
    0x7c, // i32.const -4
    0x71, // i32.and
    ...i32Const(2),
    0x74, // i32.shl
    ...set(UNROLLED_BYTES),
    ...get(DIMENSION),
    ...i32Const(3),
    0x71,
    ...i32Const(2),
    0x74,
    ...set(TAIL_BYTES),
    0x02,
    0x40, // block $done
    ...get(ROWS),
    0x45, // i32.eqz
    0x0d,
    0, // br_if $done
    0x03,
    0x40, // loop $row
    ...zeroV128,
    ...set(A),
    ...zeroV128,
    ...set(B),
    ...get(QUERY),
    ...set(QP),
    ...get(VALUES),
    ...get(UNROLLED_BYTES),
    0x6a,
    ...set(END),
    0x02,
    0x40, // block $unrolled
    ...get(VALUES),
    ...get(END),
    0x4f, // i32.ge_u
    0x0d,
    0, // br_if $unrolled (dimension < 4)
    0x03,
    0x40, // loop $four
    ...get(VALUES),
    ...simd(V128_LOAD),
    ...memarg(2),
    ...set(X),
    ...mulAdd(A, [...get(X), ...simd(F64X2_PROMOTE_LOW_F32X4)], 0),
    ...mulAdd(
      B,
      [...get(X), ...get(X), ...simd(I8X16_SHUFFLE), ...HIGH_HALF_FIRST, ...simd(F64X2_PROMOTE_LOW_F32X4)],
      16,
    ),
    ...add(VALUES, 16),
    ...add(QP, 32),
    ...get(VALUES),
    ...get(END),
    0x49, // i32.lt_u
    0x0d,
    0, // br_if $four
    0x0b, // end loop
    0x0b, // end block
    ...lane(A, 0),
    ...set(S0),
    ...get(VALUES),
    ...get(TAIL_BYTES),
    0x6a,
    ...set(ROW_END),
    0x02,
    0x40, // block $tail
    ...get(VALUES),
    ...get(ROW_END),
    0x4f,
    0x0d,
    0,
    0x03,
    0x40, // loop $one
    ...get(S0),
    ...get(VALUES),
    0x2a,
    ...memarg(2), // f32.load
    0xbb, // f64.promote_f32
    ...get(QP),
    0x2b,
    ...memarg(3), // f64.load
    0xa2, // f64.mul
    0xa0, // f64.add
    ...set(S0),
    ...add(VALUES, 4),
    ...add(QP, 8),
    ...get(VALUES),
    ...get(ROW_END),
    0x49,
    0x0d,
    0,
    0x0b,
    0x0b,
    // out[row] = (s0 + s1) + (s2 + s3)
    ...get(OUT),
    ...get(S0),
    ...lane(A, 1),
    0xa0,
    ...lane(B, 0),
    ...lane(B, 1),
    0xa0,
    0xa0,
    0x39,
    ...memarg(3), // f64.store
    ...add(OUT, 8),
    ...get(ROWS),
    ...i32Const(1),
    0x6b, // i32.sub
    0x22,
    ROWS, // local.tee
    0x0d,
    0, // br_if $row (rows left)
    0x0b, // end loop
    0x0b, // end block
    0x0b, // end function
  ];
  const locals = [3, 5, I32, 3, V128, 1, F64];
  return [...unsignedLeb(locals.length + code.length), ...locals, ...code];
}

/** The WebAssembly globals used here (the project compiles without the DOM library's types). */
type WasmModule = { readonly wasmModule: unique symbol };
type WasmApi = {
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
  Instance: new (module: WasmModule, imports: object) => { readonly exports: Record<string, unknown> };
};
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: WasmModule | null | undefined;
function kernelModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  if (wasm === undefined) {
    compiled = null;
    return compiled;
  }
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]),
    ...section(2, [1, ...name('m'), ...name('memory'), 0x02, 0x00, 0x00]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('score'), 0x00, 0]),
    ...section(10, [1, ...kernelBody()]),
  ];
  let module: WasmModule | null;
  try {
    module = new wasm.Module(Uint8Array.from(bytes));
  } catch {
    // A runtime without WebAssembly SIMD: the JavaScript loop gives the same scores.
    module = null;
  }
  compiled = module;
  return module;
}

function checkScoreArguments({
  query,
  rows,
  dimension,
  capacity,
}: {
  query: Float32Array;
  rows: number;
  dimension: number;
  capacity: number;
}): void {
  if (query.length !== dimension) throw new RangeError(`query has ${query.length} numbers, expected ${dimension}`);
  if (!Number.isInteger(rows) || rows < 0 || rows > capacity) throw new RangeError(`invalid row count ${rows}`);
}

const PAGE = 65_536;
const align16 = (bytes: number) => Math.ceil(bytes / 16) * 16;

/**
 * Below this many numbers (1 MiB of float32) a matrix is scored by the JavaScript loop: each
 * WebAssembly memory reserves gigabytes of address space, so a process can hold only ~13,000 of
 * them (a run may build an index per owner and date), and small matrices gain little from SIMD.
 */
export const SIMD_MIN_VALUES = 1 << 18;

/**
 * A kernel for up to `capacity` rows of `dimension` numbers. With `simd` (`'auto'`, the default:
 * for matrices of at least `SIMD_MIN_VALUES` numbers; `true`: whenever possible) the matrix, the
 * query and the scores share one WebAssembly memory sized for them (its pages are committed only
 * as they are written), scored with 128-bit SIMD. Otherwise, or where WebAssembly SIMD or the
 * memory is unavailable, the same layout in plain typed arrays is scored by `scoreRowsInJs`.
 * Either way the scores are identical.
 */
export function createDotProductKernel({
  dimension,
  capacity,
  simd = 'auto',
}: {
  dimension: number;
  capacity: number;
  simd?: boolean | 'auto';
}): DotProductKernel {
  if (!Number.isInteger(dimension) || dimension < 1) throw new RangeError(`invalid dimension ${dimension}`);
  if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`invalid capacity ${capacity}`);
  const wanted = simd === 'auto' ? capacity * dimension >= SIMD_MIN_VALUES : simd;
  return (wanted ? wasmKernel(dimension, capacity) : undefined) ?? jsKernel(dimension, capacity);
}

function jsKernel(dimension: number, capacity: number): DotProductKernel {
  const values = new Float32Array(capacity * dimension);
  const out = new Float64Array(capacity);
  return {
    simd: false,
    values,
    score(query, rows) {
      checkScoreArguments({ query, rows, dimension, capacity });
      scoreRowsInJs({ values, dimension, rows, query, out });
      return out.subarray(0, rows);
    },
  };
}

function wasmKernel(dimension: number, capacity: number): DotProductKernel | undefined {
  const module = kernelModule();
  const valueBytes = align16(capacity * dimension * 4);
  const queryBytes = align16(dimension * 8);
  const total = valueBytes + queryBytes + capacity * 8;
  if (wasm === undefined || module === null || total >= 2 ** 32 - PAGE) return undefined;
  let memory: { readonly buffer: ArrayBuffer };
  try {
    memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(total / PAGE)) });
  } catch {
    // Out of address space for another WebAssembly memory: the JavaScript loop still works.
    return undefined;
  }
  const instance = new wasm.Instance(module, { m: { memory } });
  const run = instance.exports.score as (values: number, rows: number, dim: number, q: number, out: number) => void;
  const values = new Float32Array(memory.buffer, 0, capacity * dimension);
  const query64 = new Float64Array(memory.buffer, valueBytes, dimension);
  const out = new Float64Array(memory.buffer, valueBytes + queryBytes, capacity);
  return {
    simd: true,
    values,
    score(query, rows) {
      checkScoreArguments({ query, rows, dimension, capacity });
      query64.set(query);
      run(0, rows, dimension, valueBytes, valueBytes + queryBytes);
      return out.subarray(0, rows);
    },
  };
}
