import { paymentRequired, type ServiceError } from '../errors.js';

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
    'INSUFFICIENT_CREDITS',
    { credits_remaining: balance, credits_required: cost },
  );
}
