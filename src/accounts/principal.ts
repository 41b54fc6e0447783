/** Who is calling, once a credential has been checked. */
export interface Principal {
  accountId: string;
  via: 'api_key' | 'bearer';
  /** set when via = api_key */
  apiKeyId: string | null;
  /** set when via = bearer */
  sessionId: string | null;
  /** per-key overrides; null = service defaults */
  rateLimitPerMinute: number | null;
  rateLimitPerHour: number | null;
  /** the key's own daily credit limit (the account's is read when spending) */
  keyDailyCreditLimit: number | null;
}

/** Which credentials a route accepts. */
export type AuthMode = 'public' | 'either' | 'bearer';
