import { ConfidantError, type SampleFailure } from '../../spec/errors.js';
import type { PacOutput } from './pac-output.js';
import type { PacEpisodeFailure } from './simulate-episode.js';

/**
 * Thrown by the suite's `solve` when an episode ended in an error, so the runner records the
 * sample as `status: 'error'`. It takes the underlying error's name (`TurnLimitError`,
 * `ProviderError`, … — what `PAC_ERROR_KIND_BY_NAME` classifies) and message, and carries the
 * failing participant and the partial output, which the runner keeps in the record
 * (`error.participantId`, `output`). The underlying error is the `cause`, so a budget stop or an
 * interruption behind it is still recognised as such.
 */
export class PacEpisodeError extends ConfidantError implements SampleFailure {
  readonly participantId: string;
  readonly partialOutput: PacOutput;

  constructor({ failure, output }: { failure: PacEpisodeFailure; output: PacOutput }) {
    super(failure.message, { cause: failure.error });
    this.name = failure.name;
    this.participantId = failure.participantId;
    this.partialOutput = output;
  }
}
