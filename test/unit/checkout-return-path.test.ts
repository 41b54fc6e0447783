import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_RETURN_PATH, returnUrls } from '../../src/payments/payments.js';

/** Every dashboard path a file quotes before a query string (`/dashboard/credits?checkout=…`). */
const quotedReturnPaths = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/\/dashboard[\w/-]*(?=\?)/g)].map((match) => match[0]);

describe('where a buyer comes back to from the checkout', () => {
  it("is the code's one path, the one .env.example and the docs tell operators", () => {
    expect(returnUrls('https://api.example.com', 'pay_1')).toEqual({
      successUrl: `https://api.example.com${CHECKOUT_RETURN_PATH}?checkout=success&payment=pay_1`,
      cancelUrl: `https://api.example.com${CHECKOUT_RETURN_PATH}?checkout=cancelled&payment=pay_1`,
    });
    expect(readFileSync('.env.example', 'utf8')).toContain(
      `# Buyers come back to PUBLIC_BASE_URL${CHECKOUT_RETURN_PATH}?checkout=success|cancelled&payment=<reference>.`,
    );
    for (const file of ['.env.example', 'docs/api.md', 'docs/dashboard.md']) {
      const quoted = quotedReturnPaths(file);
      expect(quoted.length, file).toBeGreaterThan(0);
      expect(new Set(quoted), file).toEqual(new Set([CHECKOUT_RETURN_PATH]));
    }
  });
});
