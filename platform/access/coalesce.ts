interface Waiting<Answer> {
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

/** One lane: the arguments its calls share, and the calls that came while its call was in flight. */
interface Lane<Args, Answer> {
  args: Args;
  waiting: Waiting<Answer>[];
}

/**
 * Calls of one lane (one key and window) that arrive while a call of that lane is in flight wait
 * for it, then go together as one `run(args, n)`; `share(result, index, n)` gives each of the n its
 * own answer, in arrival order. The first call of a quiet lane goes at once. A failed run fails the
 * n calls it carried and none of the next. Used by coalesceHits and ApiKeys.admit (decision 0039).
 */
export function coalesce<Args, Result, Answer>(
  run: (args: Args, n: number) => Promise<Result>,
  share: (result: Result, index: number, n: number) => Answer,
): (laneKey: string, args: Args) => Promise<Answer> {
  const lanes = new Map<string, Lane<Args, Answer>>();

  function send(laneKey: string, lane: Lane<Args, Answer>): void {
    const batch = lane.waiting.splice(0);
    run(lane.args, batch.length)
      .then(
        (result) => batch.forEach((call, index) => call.resolve(share(result, index, batch.length))),
        (error: unknown) => batch.forEach((call) => call.reject(error)),
      )
      .finally(() => {
        if (lane.waiting.length > 0) send(laneKey, lane);
        else lanes.delete(laneKey);
      });
  }

  return (laneKey, args) =>
    new Promise<Answer>((resolve, reject) => {
      const lane = lanes.get(laneKey);
      if (lane) return void lane.waiting.push({ resolve, reject });
      const started: Lane<Args, Answer> = { args, waiting: [{ resolve, reject }] };
      lanes.set(laneKey, started);
      send(laneKey, started);
    });
}

/** A call's place among the n counted together: the total after the increment, less the calls counted after it. */
export const placeIn = (total: number, index: number, n: number): number => total - n + index + 1;
