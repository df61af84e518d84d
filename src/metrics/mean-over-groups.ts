import type { MetricValue } from '../spec/metric-value.js';
import { meanOf, standardErrorOf } from './mean.js';

/**
 * The unweighted mean of group-level values (PAC's per-initiator aggregation, Table 11;
 * PrivacyBench's average of the model rows). Groups whose value is null are left out of the
 * mean. Like `meanOfGroupMeans`, `n` counts the groups that have a value while `errors` and
 * `notApplicable` sum the groups' counts; `stderr` is the standard error of the group values.
 */
export function meanOverGroups(values: readonly MetricValue[]): MetricValue {
  const present = values.flatMap((value) => (value.value === null ? [] : [value.value]));
  const stderr = standardErrorOf(present);
  const value = meanOf(present);
  const reasons = values.flatMap((each) => (each.reason === undefined ? [] : [each.reason]));
  return {
    value,
    n: present.length,
    errors: values.reduce((sum, each) => sum + each.errors, 0),
    notApplicable: values.reduce((sum, each) => sum + each.notApplicable, 0),
    ...(stderr === undefined ? {} : { stderr }),
    ...(value === null
      ? {
          reason: values.length === 0 ? 'no group to average' : `no group has a value (${reasons[0] ?? 'none scored'})`,
        }
      : {}),
  };
}
