import { ServiceError } from '../errors.js';

/**
 * A bound on concurrent password hashing (scrypt, N=2^17: ~128 MiB and a few hundred milliseconds of
 * a core each). Registrations and logins take their turn here: at most `concurrency` hashes run at
 * once and `queue` wait; past that the caller gets 503 PASSWORD_WORK_BUSY with Retry-After at once,
 * so a flood of registrations or failing logins takes at most `concurrency` cores, never the
 * machine, and searches keep their share of it.
 */
export class PasswordWork {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) throw busy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      // the turn passes straight to the next in line (running stays the same), else it is freed
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

const busy = () =>
  new ServiceError(
    'PASSWORD_WORK_BUSY',
    'Demasiados registos e inícios de sessão em curso neste momento. Tente novamente dentro de momentos.',
    {},
    2,
  );
