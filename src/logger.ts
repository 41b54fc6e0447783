import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'parts-stock-search-api' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['password', '*.password', 'authorization', '*.authorization'], remove: true },
  });
}
