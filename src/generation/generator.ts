import type { z } from 'zod';
import type { BoundModel } from '../spec/chat-model.js';

/**
 * What one flag of a generator says beside its zod type, given with `.meta({ flag, value })` on
 * the field: the spelling (default `--<kebab-case key>`) and the value name shown in help
 * (default `<value>`; none for a boolean switch). The field's description is its help line.
 */
export type GeneratorFlagMeta = { flag?: string; value?: string; description?: string };

/** What a generator gets to run: the datagen model, where to write, and where to say how it goes. */
export type GeneratorContext = {
  /** The `datagen` model: cached, budgeted, rate limited and recorded like any run's models. */
  model: BoundModel;
  /** The output folder (absolute); its `.generate/` folder holds the journal. */
  outDir: string;
  /** The directory relative paths among the flags resolve against. */
  cwd: string;
  signal: AbortSignal;
  /** Writes progress and summary text (stderr in the CLI). */
  log(text: string): void;
};

/**
 * How a generation ended: `complete` (every unit written), `partial` (some rejected: exit 4) or
 * `failed` (nothing written: exit 2, `failure` says why). `output` is what to use next (the
 * folder a suite loads, printed as the last line of stdout).
 */
export type GeneratorResult = {
  status: 'complete' | 'partial' | 'failed';
  output: string;
  written: number;
  rejected: number;
  failure?: string;
};

/**
 * A suite's data generator, as `confidant generate <id>` runs it: its flags are the fields of
 * `flags` (one zod object, parsed from the command line's texts, so number fields coerce), its
 * work is `run`. A generator is built on this folder's journal, checked stages and structured
 * calls; `--out`, the model flags, the run directory and exit codes are the CLI's.
 */
export type DataGenerator<S extends z.ZodObject = z.ZodObject> = {
  /** The suite id it generates data for (`pac`, `privacybench`). */
  id: string;
  /** One line for `confidant generate --help`. */
  description: string;
  /** What `--out` names, for help and the message when it is missing (`the folder to write (or resume)`). */
  out: string;
  /** Help text after the flags: the layout written and how to use it. */
  epilog?: string;
  flags: S;
  run(options: GeneratorContext & { flags: z.output<S> }): Promise<GeneratorResult>;
};

/** Declares a generator, keeping its flag type for `run` (the registry holds it erased). */
export function defineGenerator<S extends z.ZodObject>(generator: DataGenerator<S>): DataGenerator {
  return generator as unknown as DataGenerator;
}
