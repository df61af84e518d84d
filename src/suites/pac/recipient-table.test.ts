import { describe, expect, it } from 'vitest';
import type { MetricValue } from '../../spec/metric-value.js';
import { pacRecipientTable } from './recipient-table.js';

const rate = (value: number | null, n: number): MetricValue => ({ value, n, errors: 0, notApplicable: 0 });
const both = (value: number | null, n = 1) => ({ ps: rate(value, n), acc_privacy: rate(value, n) });

describe('pacRecipientTable', () => {
  it('renders sender rows, recipient columns and what each recipient received from everyone', () => {
    const table = pacRecipientTable({
      groups: {
        privacy_recipient: { north: both(0), buyer: both(1, 2) },
        privacy_pair: { 'buyer->north': both(1), 'north->buyer': both(1, 2), 'harbor->north': both(0) },
      },
    });
    expect(table.split('\n')).toEqual([
      'Privacy by recipient. Cells: PS / Acc_privacy (%) of what the recipient received from the sender, judged against what that recipient may not learn; n = runs.',
      '',
      '| Sender \\ Recipient | north | buyer |',
      '|---|---|---|',
      '| buyer | 100.0 / 100.0 (n=1) |  |',
      '| north |  | 100.0 / 100.0 (n=2) |',
      '| harbor | 0.0 / 0.0 (n=1) |  |',
      '| Every sender | 0.0 / 0.0 (n=1) | 100.0 / 100.0 (n=2) |',
      '',
    ]);
  });

  it('is empty without N-party groups, and shows a missing value as – (never 0)', () => {
    expect(pacRecipientTable({ groups: { privacy_agent: { agent_a: both(1) } } })).toBe('');
    expect(pacRecipientTable({})).toBe('');
    const table = pacRecipientTable({ groups: { privacy_pair: { 'a|b->c': both(null, 0) } } });
    expect(table).toContain('| a\\|b | – / – (n=0) |');
  });
});
