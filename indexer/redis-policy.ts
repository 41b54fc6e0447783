import { Redis } from 'ioredis';
import type { Logger } from '../src/logger.js';

/**
 * BullMQ's production guide asks Redis for `maxmemory-policy noeviction` (an evicting Redis drops
 * queue keys, and with them jobs and locks) and for AOF persistence. The index no longer depends on
 * Redis keeping its data — the outbox hands out again whatever the queue lost — but an evicting
 * Redis makes the queue lose work all the time, each loss costing a lease's wait. Read at start;
 * returns whether the policy is noeviction (false when it cannot be read: a managed Redis may
 * refuse CONFIG).
 */
export async function checkRedisPolicy(redisUrl: string, logger: Logger): Promise<boolean> {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  try {
    await redis.connect();
    const [, policy] = (await redis.config('GET', 'maxmemory-policy')) as [string, string];
    const [, appendonly] = (await redis.config('GET', 'appendonly')) as [string, string];
    if (policy !== 'noeviction') {
      logger.warn(
        { maxmemoryPolicy: policy },
        `Redis's maxmemory-policy is "${policy}": BullMQ needs "noeviction" (CONFIG SET maxmemory-policy noeviction, or in redis.conf). Evicted queue keys are jobs lost; the outbox hands their changes out again, but only after a lease`,
      );
    }
    if (appendonly !== 'yes') {
      logger.info(
        { appendonly },
        'Redis keeps no append-only file: a restart empties the queue (the outbox hands the changes out again after a lease)',
      );
    }
    return policy === 'noeviction';
  } catch (error) {
    logger.warn({ err: error }, "could not read Redis's maxmemory-policy; make sure it is noeviction");
    return false;
  } finally {
    redis.disconnect();
  }
}
