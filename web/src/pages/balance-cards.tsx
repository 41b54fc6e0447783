import type { Balance } from '../account';
import { useI18n } from '../i18n';

export function BalanceCards({ balance }: { balance: Balance | null }) {
  const { t } = useI18n();
  return (
    <dl class="cards" aria-live="polite">
      <div>
        <dt>{t('balance')}</dt>
        <dd data-testid="balance">{balance ? balance.credits : '…'}</dd>
      </div>
      <div>
        <dt>{t('spentToday')}</dt>
        <dd data-testid="spent-today">{balance ? balance.spent_today : '…'}</dd>
      </div>
      <div>
        <dt>{t('effectiveLimit')}</dt>
        <dd data-testid="daily-limit">{balance ? (balance.daily_credit_limit ?? t('noLimit')) : '…'}</dd>
      </div>
    </dl>
  );
}
