/**
 * A feed's pace: the function it returns waits, once `lines` are read, until reading them at
 * `perSecond` from the pace's making would have taken as long (0: never waits). Throttled like a database's vacuum or a search engine's
 * recovery: background work that takes a host's cores at full speed delays every request meanwhile.
 */
export function linePace(perSecond: number): (lines: number) => Promise<void> {
  const started = performance.now();
  return async (lines) => {
    if (perSecond <= 0) return;
    const ahead = started + (lines / perSecond) * 1000 - performance.now();
    if (ahead > 0) await new Promise((resolve) => setTimeout(resolve, ahead));
  };
}
