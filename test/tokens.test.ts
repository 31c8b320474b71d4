import { describe, expect, it } from 'vitest';
import { hashPersonalApiKey, maskKey, newPersonalApiKeyValue, newProjectApiToken, uuidv7 } from '../src/core/tokens.js';

describe('tokens and ids', () => {
  it('keys and project tokens have PostHog shapes and do not repeat', () => {
    const keys = new Set(Array.from({ length: 1000 }, newPersonalApiKeyValue));
    expect(keys.size).toBe(1000);
    for (const key of keys) expect(key).toMatch(/^phx_[0-9A-Za-z]{43}$/);
    expect(newProjectApiToken()).toMatch(/^phc_[0-9A-Za-z]{43}$/);
    expect(maskKey('phx_abcdefgh')).toBe('phx_...efgh');
    expect(hashPersonalApiKey('phx_x')).toMatch(/^sha256\$[0-9a-f]{64}$/);
  });

  it('uuidv7 ids made in the same millisecond still sort in creation order', () => {
    const now = Date.now() + 60_000;
    const ids = Array.from({ length: 5000 }, () => uuidv7(now));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 10)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
