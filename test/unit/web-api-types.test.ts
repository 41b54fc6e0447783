import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEB_API_TYPES, webApiTypes } from '../../scripts/web-api-types.js';

describe('web/src/api-types.ts', () => {
  it('is what the API declares now (the dashboard follows every response schema change)', async () => {
    expect(
      readFileSync(WEB_API_TYPES, 'utf8'),
      "web/src/api-types.ts differs from the API's response schemas: run `npm run web:api-types`, then `npm run typecheck` to see what the dashboard must change",
    ).toBe(await webApiTypes());
  });
});
