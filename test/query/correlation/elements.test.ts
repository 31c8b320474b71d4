// Autocapture chains read into PostHog's element objects, as correlation items show them.
import { describe, expect, it } from 'vitest';
import { chainToElements } from '../../../src/query/elements-chain.js';

describe('chainToElements', () => {
  it('reads tags, classes, the known attributes and the rest, element by element', () => {
    const chain = 'button.btn.btn-primary:attr__data-id="42"nth-child="2"nth-of-type="1"text="Buy; now: \\"cheap\\""attr_id="buy";div.wrapper:nth-child="0"nth-of-type="0"';
    expect(chainToElements(chain)).toEqual([
      {
        event: null, tag_name: 'button', attr_class: ['btn', 'btn-primary'], text: 'Buy; now: "cheap"', href: null, attr_id: 'buy',
        nth_child: 2, nth_of_type: 1, attributes: { 'attr__data-id': '42' }, order: 0,
      },
      { event: null, tag_name: 'div', attr_class: ['wrapper'], text: null, href: null, attr_id: null, nth_child: 0, nth_of_type: 0, attributes: {}, order: 1 },
    ]);
    expect(chainToElements('')).toEqual([]);
  });
});
