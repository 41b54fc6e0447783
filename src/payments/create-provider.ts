import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { PaymentProvider } from './provider.js';
import { SandboxProvider } from './sandbox-provider.js';
import { StripeProvider } from './stripe-provider.js';

/** The provider the configuration names (config.ts, PAYMENT_PROVIDER); null when purchases are off. */
export function createPaymentProvider(config: Config, logger: Logger): PaymentProvider | null {
  const settings = config.payments;
  if (!settings) return null;
  if (settings.provider === 'sandbox') return new SandboxProvider(config.publicBaseUrl);
  return new StripeProvider(settings, logger);
}
