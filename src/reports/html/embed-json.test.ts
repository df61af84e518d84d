import { describe, expect, it } from 'vitest';
import { embedJson, escapeHtml } from './embed-json.js';

describe('embedJson', () => {
  it('keeps </script> and comments from closing the block, and round-trips', () => {
    const value = { text: '</script><script>alert(1)</script> <!-- & \u2028' };
    const embedded = embedJson(value);
    expect(embedded).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(embedded)).toEqual(value);
  });
});

describe('escapeHtml', () => {
  it('escapes markup and quotes', () => {
    expect(escapeHtml(`"><img src=x onerror='a'>&`)).toBe('&quot;&gt;&lt;img src=x onerror=&#39;a&#39;&gt;&amp;');
  });
});
