import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { Principal } from '../principal.js';

/** The pub/sub channel on which credential changes reach every API process of a deployment. */
export const credentialChangesChannel = (redisPrefix: string) => `${redisPrefix}credential-changes`;

/**
 * Announces a change to every API process of the deployment (they forget what they kept of it).
 * The one writer of the channel's messages: the cache's own changes and operator commands that
 * change credentials outside the API (scripts/account-plan.ts) both go through it.
 */
export async function announceCredentialChange(
  redis: Redis,
  redisPrefix: string,
  change: CredentialChange,
): Promise<void> {
  await redis.publish(credentialChangesChannel(redisPrefix), JSON.stringify(change));
}

/** A credential that authenticated, as remembered between requests. */
export interface KnownCredential {
  principal: Principal;
  /** when a Bearer session ends (checked on every use); null for an API key */
  expiresAt: Date | null;
  /** when this process last wrote the key's last_used_at (or read it); null for a session */
  lastUsedAt: Date | null;
}

/** What stopped holding as it was: a key revoked or edited, a session ended, an account's plan changed. */
export type CredentialChange = { apiKeyId: string } | { sessionId: string } | { accountId: string };

export interface CredentialCacheOptions {
  /** how long a credential is trusted without asking the database again; 0 = never */
  ttlSeconds: number;
  /** null in the embedded shape (one process: forgetting locally is enough) */
  redis: Redis | null;
  /** the deployment's Redis key prefix: its processes listen on credentialChangesChannel(prefix) */
  redisPrefix: string;
  clock: Clock;
  logger: Logger;
}

/** At most this many credentials are remembered; the least recently used go first. */
const MAX_CREDENTIALS = 10_000;

const matches = (known: KnownCredential, change: CredentialChange): boolean =>
  'apiKeyId' in change
    ? known.principal.apiKeyId === change.apiKeyId
    : 'sessionId' in change
      ? known.principal.sessionId === change.sessionId
      : known.principal.accountId === change.accountId;

/**
 * Credentials that authenticated, kept for a few seconds so that a busy integration's requests are
 * not each preceded by a database lookup (one round trip of the three a charged search made).
 *
 * A revoked or edited key, or an ended session, is forgotten at once by the process that changed it
 * and, through Redis pub/sub, by every other API process: the accounts services that change a key
 * or end a session announce it themselves (ApiKeysService, LoginService.logout). When that channel
 * was lost (Redis down), a process forgets everything it knew as soon as it is back. The TTL bounds
 * what is left: a change whose message never arrived. A revoked key is never charged whatever the
 * cache holds: the charge itself refuses it (sql/0025). Routes that only a Bearer session may call
 * (key management, purchases, the account) always look the session up afresh.
 */
export class CredentialCache {
  private readonly known: LRUCache<string, KnownCredential> | null;
  private subscriber: Redis | null = null;
  /**
   * Counts what was forgotten: a lookup that was under way while something was forgotten may have
   * read the row before the change, so what it found is used once but not kept.
   */
  private forgettings = 0;

  constructor(private readonly options: CredentialCacheOptions) {
    const { ttlSeconds, clock } = options;
    this.known =
      ttlSeconds > 0
        ? new LRUCache<string, KnownCredential>({
            max: MAX_CREDENTIALS,
            ttl: ttlSeconds * 1000,
            // expiry follows the service's clock, so tests can move it
            perf: { now: () => clock.now().getTime() },
          })
        : null;
  }

  /**
   * The credential kept under id, else what lookUp finds (kept from then on). `fresh` always looks
   * it up (and keeps the answer). lookUp's errors pass.
   */
  async recall(
    id: string,
    lookUp: () => Promise<KnownCredential>,
    { fresh = false }: { fresh?: boolean } = {},
  ): Promise<KnownCredential> {
    const kept = fresh ? undefined : this.known?.get(id);
    if (kept) return kept;
    const before = this.forgettings;
    const found = await lookUp();
    if (this.forgettings === before) this.known?.set(id, found);
    return found;
  }

  /** Forgets the credential here and tells the other API processes to forget it too. */
  async changed(change: CredentialChange): Promise<void> {
    this.forget(change);
    const { redis, redisPrefix, logger } = this.options;
    // announced even when this process keeps nothing (CREDENTIAL_CACHE_SECONDS=0): others may
    if (!redis) return;
    await announceCredentialChange(redis, redisPrefix, change).catch((error: unknown) => {
      logger.warn(
        { err: error, change },
        'credential change not announced; other processes trust their copy until it expires',
      );
    });
  }

  /** Listens for the changes other processes announce. */
  async start(): Promise<void> {
    const { redis, redisPrefix, logger } = this.options;
    if (!redis || !this.known) return;
    const channel = credentialChangesChannel(redisPrefix);
    // A connection in subscriber mode can do nothing else. It subscribes on every connection and
    // only then forgets what it kept: changes announced while it was not listening (Redis down at
    // start, a reconnection) are lost, and anything looked up before the subscription holds may
    // predate one of them.
    const subscriber = redis.duplicate({
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      autoResubscribe: false,
      connectionName: `${channel}-listener`,
    });
    this.subscriber = subscriber;
    let reported = false;
    subscriber.on('error', (error: unknown) => {
      if (reported) return;
      reported = true;
      logger.warn({ err: error }, 'credential change channel lost; kept credentials are forgotten on return');
    });
    subscriber.on('message', (_channel: string, message: string) => {
      try {
        this.forget(JSON.parse(message) as CredentialChange);
      } catch (error) {
        logger.warn({ err: error, message }, 'unreadable credential change ignored');
      }
    });
    subscriber.on('ready', () => {
      subscriber
        .subscribe(channel)
        .then(() => {
          reported = false;
          this.forgetAll();
        })
        .catch((error: unknown) => logger.warn({ err: error }, 'credential change channel unavailable'));
    });
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect();
    this.subscriber = null;
  }

  private forget(change: CredentialChange): void {
    this.forgettings += 1;
    if (!this.known) return;
    for (const [id, known] of this.known.entries()) if (matches(known, change)) this.known.delete(id);
  }

  private forgetAll(): void {
    this.forgettings += 1;
    this.known?.clear();
  }
}
