import { paymentRequired, ServiceError } from '../errors.js';

const INSUFFICIENT_CREDITS = 'INSUFFICIENT_CREDITS';

/**
 * The refusal of a charge the balance cannot pay (402 INSUFFICIENT_CREDITS), saying where more
 * credits come from: bought, where purchases are on; the service's operator (npm run
 * account:credits), where they are off (PAYMENT_PROVIDER=none), for a purchase would only answer
 * 503 there.
 */
export function insufficientCredits(cost: number, balance: number, purchases: 'on' | 'off'): ServiceError {
  const more =
    purchases === 'on'
      ? 'Compre créditos em /data/credits/packages.'
      : 'As compras de créditos não estão ativas neste servidor: peça mais créditos ao operador do serviço.';
  return paymentRequired(
    `Créditos insuficientes: esta pesquisa custa ${cost} crédito e o saldo é ${balance}. ${more}`,
    INSUFFICIENT_CREDITS,
    { credits_remaining: balance, credits_required: cost },
  );
}

/**
 * `charging` (a search service's method), its refusals for want of credits saying to ask the
 * operator: for a server whose purchases are off. The charge that refuses is decided inside the
 * search service, which knows nothing of payments; the composition root, which knows both, wraps
 * the service's methods with this.
 */
export function askingTheOperatorForCredits<A extends unknown[], R>(
  charging: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await charging(...args);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== INSUFFICIENT_CREDITS) throw error;
      const { credits_required, credits_remaining } = error.details as Record<string, number>;
      throw insufficientCredits(credits_required!, credits_remaining!, 'off');
    }
  };
}
