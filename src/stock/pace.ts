/**
 * A pace for background work counted in units (a feed's lines, an upload's bytes): the function
 * it returns waits, once `done` units are through, until doing them at `perSecond` from the pace's
 * making would have taken as long (0: never waits). Throttled like a database's vacuum or a search
 * engine's recovery: background work that takes a host's cores at full speed delays every request
 * meanwhile.
 */
export function pace(perSecond: number): (done: number) => Promise<void> {
  const started = performance.now();
  return async (done) => {
    if (perSecond <= 0) return;
    const ahead = started + (done / perSecond) * 1000 - performance.now();
    if (ahead > 0) await new Promise((resolve) => setTimeout(resolve, ahead));
  };
}
