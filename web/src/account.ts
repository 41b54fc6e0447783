import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from './api';
import type { AccountAnswer, BalanceAnswer } from './api-types';

export type Balance = BalanceAnswer;
export type Account = AccountAnswer;

/** The balance as the API has it now, and a way to ask again. */
export function useBalance() {
  const [balance, setBalance] = useState<Balance | null>(null);
  const refresh = useCallback(async () => {
    const { data } = await api<Balance>('GET', '/data/credits/balance');
    setBalance(data);
    return data;
  }, []);
  useEffect(() => {
    refresh().catch(() => undefined);
  }, [refresh]);
  return { balance, refresh };
}
