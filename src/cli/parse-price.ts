import { parseModelSpec } from '../models/parse-model-spec.js';
import { ConfidantError, PlanValidationError } from '../spec/errors.js';
import type { ModelPrice } from '../spec/model-price.js';

const EXAMPLE = '--price openai:gpt-4o=2.5/10';
const NUMBER = /^\s*(\d+(\.\d+)?|\.\d+)\s*$/;

/**
 * Parses `<input>/<output>` (USD per million input and output tokens, e.g. `2.5/10`) for
 * `model`. `where` names the flag or config key in the error.
 */
export function parsePricePair({ text, model, where }: { text: string; model: string; where: string }): ModelPrice {
  const [input, output, ...rest] = text.split('/');
  if (input === undefined || output === undefined || rest.length > 0 || !NUMBER.test(input) || !NUMBER.test(output)) {
    throw new PlanValidationError(
      `${where} expects <input>/<output> in USD per million tokens for ${model}, got '${text}' (for example ${EXAMPLE})`,
    );
  }
  return { inputPerMillionUsd: Number(input), outputPerMillionUsd: Number(output) };
}

/**
 * Checks the model part of a price: a model spec (`provider:model[@baseURL…]`) or a bare model id.
 * A malformed spec is a user error that names `where`.
 */
export function checkPriceModel({ model, where }: { model: string; where: string }): string {
  const text = model.trim();
  if (text === '') {
    throw new PlanValidationError(
      `${where} needs a model before '=': <provider:model>=<input>/<output> (for example ${EXAMPLE})`,
    );
  }
  if (text.includes(':')) {
    try {
      parseModelSpec(text);
    } catch (error) {
      if (ConfidantError.isInstance(error)) throw new PlanValidationError(`${where}: ${error.message}`);
      throw error;
    }
  }
  return text;
}

/**
 * Parses one `--price <model>=<input>/<output>`. The price is the text after the last `=`, so a
 * spec whose base URL has `=` in its query string still parses. Bad input is a user error showing
 * the expected form.
 */
export function parsePriceAssignment({ text, flag }: { text: string; flag: string }): {
  model: string;
  price: ModelPrice;
} {
  const equals = text.lastIndexOf('=');
  if (equals < 0) {
    throw new PlanValidationError(
      `${flag} expects <model>=<input>/<output> in USD per million tokens, got '${text}' (for example ${EXAMPLE})`,
    );
  }
  const model = checkPriceModel({ model: text.slice(0, equals), where: flag });
  return { model, price: parsePricePair({ text: text.slice(equals + 1).trim(), model, where: flag }) };
}
