import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { PaymentProvider } from './provider.js';
import { SandboxProvider } from './sandbox-provider.js';
import { StripeProvider } from './stripe-provider.js';

/** The provider purchases go through (null: off), and the sandbox when it is that provider. */
export interface ConfiguredPayments {
  provider: PaymentProvider | null;
  sandbox: SandboxProvider | null;
}

/** The sandbox as the provider (the embedded default; tests give it a known secret). */
export const sandboxPayments = (sandbox: SandboxProvider): ConfiguredPayments => ({
  provider: sandbox,
  sandbox,
});

/** The provider the configuration names (config.ts, PAYMENT_PROVIDER). */
export function configuredPayments(config: Config, logger: Logger): ConfiguredPayments {
  const settings = config.payments;
  if (!settings) return { provider: null, sandbox: null };
  if (settings.provider === 'sandbox') return sandboxPayments(new SandboxProvider(config.publicBaseUrl));
  return { provider: new StripeProvider(settings, logger), sandbox: null };
}
