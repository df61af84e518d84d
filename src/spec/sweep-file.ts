import { z } from 'zod';

/** A cell label or axis name: safe as a directory name and on every command line. */
const labelSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/,
    'a label is 1–64 letters, digits, ".", "_", "+" or "-", starting with a letter or digit',
  )
  .refine((label) => !label.includes('__'), 'a label may not contain "__" (it joins the labels of a cell id)');

/**
 * What one axis value (or the sweep's fixed `settings`) contributes to a cell: the keys of a
 * `--config` file (run flags such as `model`, `defense`, `epochs`, and the suite's options, at the
 * top level or under `set`), plus `suite`, the suite id. Checked per cell against the cell's suite.
 */
export const sweepFragmentSchema = z.record(z.string(), z.unknown());
export type SweepFragment = z.infer<typeof sweepFragmentSchema>;

/** A partial assignment of labels: for each named axis, one label or a list of labels. */
const labelMatchSchema = z.record(labelSchema, z.union([labelSchema, z.array(labelSchema).min(1)]));

/**
 * A sweep file (YAML or JSON): named axes whose values are config fragments; the cells are the
 * product of the axes (in file order), minus the cells an `exclude` rule matches, plus the cells
 * `include` names in full. `settings` apply to every cell, beneath the axis values (axes later in
 * the file win over earlier ones for the same key; model bindings merge by role, `set` by key).
 */
export const sweepFileSchema = z
  .object({
    /** Shown in reports; default: the file name. */
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    settings: sweepFragmentSchema.default({}),
    axes: z
      .record(
        labelSchema,
        z.record(
          labelSchema,
          sweepFragmentSchema.nullable().transform((value) => value ?? {}),
        ),
      )
      .refine((axes) => Object.keys(axes).length > 0, 'a sweep needs at least one axis')
      .refine(
        (axes) => Object.values(axes).every((values) => Object.keys(values).length > 0),
        'every axis needs at least one value',
      ),
    /** Cells matching every key of one rule (a label, or any of a list) are left out. */
    exclude: z.array(labelMatchSchema).default([]),
    /** Cells added beyond the product, each naming one label of every axis. */
    include: z.array(z.record(labelSchema, labelSchema)).default([]),
    /** How `sweep report` lays the table out by default (axis names). */
    report: z
      .object({
        rows: z.array(labelSchema).optional(),
        cols: z.array(labelSchema).optional(),
        metrics: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type SweepFile = z.output<typeof sweepFileSchema>;

/** One cell of a sweep: its id, its label per axis and the fragments that make its config, lowest first. */
export type SweepCell = {
  /** The labels joined by `__` in axis order, e.g. `privacylens__gpt-4o__ppe` (its directory name). */
  id: string;
  labels: Record<string, string>;
  /** `settings`, then one fragment per axis in axis order. */
  fragments: SweepFragment[];
};

/**
 * The sweep directory's `sweep.json`: the file it came from and every cell with its directory and
 * plan hash. Derived from the sweep file alone (never from progress), so shards that write it at
 * the same time write the same content.
 */
export const sweepManifestSchema = z.object({
  version: z.literal(1),
  name: z.string(),
  file: z.object({ path: z.string(), sha256: z.string() }),
  axes: z.array(z.object({ name: z.string(), labels: z.array(z.string()) })),
  /** The sweep file's default table layout. */
  report: z
    .object({
      rows: z.array(z.string()).optional(),
      cols: z.array(z.string()).optional(),
      metrics: z.array(z.string()).optional(),
    })
    .optional(),
  cells: z.array(
    z.object({
      id: z.string(),
      labels: z.record(z.string(), z.string()),
      suite: z.string(),
      planHash: z.string(),
      /** Relative to the sweep directory. */
      dir: z.string(),
    }),
  ),
});
export type SweepManifest = z.infer<typeof sweepManifestSchema>;
