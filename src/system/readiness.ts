/** One dependency /ready asks about: Postgres, Redis, the search cluster. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export interface CheckResult {
  ok: boolean;
  ms: number;
  error?: string;
}

/** Each check's name and result, in the order the checks were given. */
export type ReadinessReport = [string, CheckResult][];

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: ReadinessCheck): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check.check(),
      new Promise(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error('sem resposta a tempo')), CHECK_TIMEOUT_MS)),
      ),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch {
    return { ok: false, ms: Math.round(performance.now() - started), error: 'indisponível' };
  } finally {
    clearTimeout(timer);
  }
}

/** How long one round of readiness checks answers every /ready of this process. */
const READINESS_REUSE_MS = 1_000;

/** Whether the service's dependencies answer. */
export type Readiness = () => Promise<ReadinessReport>;

/**
 * Runs the checks at most once a second per process, however many callers ask: every caller within
 * that second (and every caller while a round is under way) gets the same round's answer, so the
 * database and Redis see a ping a second from /ready rather than one per request.
 */
export function sharedReadiness(checks: ReadinessCheck[]): Readiness {
  let round: { startedAt: number; results: Promise<ReadinessReport> } | null = null;
  return () => {
    const now = performance.now();
    if (!round || now - round.startedAt >= READINESS_REUSE_MS) {
      round = {
        startedAt: now,
        results: Promise.all(checks.map(async (c) => [c.name, await runCheck(c)] as [string, CheckResult])),
      };
    }
    return round.results;
  };
}
