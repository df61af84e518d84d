import { describe, expect, it } from 'vitest';
import { readJsonPath } from './read-json-path.js';

const document = { offer: { items: [{ price: 12 }, { price: null }], 'unit.cost': 3 } };

describe('readJsonPath', () => {
  it('walks property names and list indices; the empty path is the document', () => {
    expect(readJsonPath({ document, path: 'offer.items.0.price' })).toEqual({ found: true, value: 12 });
    expect(readJsonPath({ document, path: 'offer.items.1.price' })).toEqual({ found: true, value: null });
    expect(readJsonPath({ document, path: '' })).toEqual({ found: true, value: document });
  });

  it('names the first part that is not there', () => {
    expect(readJsonPath({ document, path: 'offer.items.3.price' })).toEqual({ found: false, missing: 'offer.items.3' });
    expect(readJsonPath({ document, path: 'offer.items.first' })).toEqual({
      found: false,
      missing: 'offer.items.first',
    });
    expect(readJsonPath({ document, path: 'offer.total' })).toEqual({ found: false, missing: 'offer.total' });
    expect(readJsonPath({ document, path: 'offer.items.0.price.cents' })).toEqual({
      found: false,
      missing: 'offer.items.0.price.cents',
    });
    expect(readJsonPath({ document, path: 'toString' })).toEqual({ found: false, missing: 'toString' });
  });
});
