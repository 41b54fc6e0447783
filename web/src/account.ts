import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from './api';

export interface Balance {
  credits: number;
  daily_credit_limit: number | null;
  spent_today: number;
}

export interface Account {
  account: {
    id: string;
    email: string;
    name: string | null;
    credits: number;
    daily_credit_limit: number | null;
  };
  plan: { rate_limit_per_minute: number; rate_limit_per_hour: number; daily_credits: number | null };
}

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
