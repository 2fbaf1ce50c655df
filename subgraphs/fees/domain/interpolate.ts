/** [value, score] points, ascending values: a score curve of the oracles' parameters. */
export type ScorePoints = ReadonlyArray<readonly number[]>;

/** Piecewise linear through [value, score] points, flat beyond the ends. */
export function interpolate(value: number, points: ScorePoints): number {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (value <= first[0]!) return first[1]!;
  if (value >= last[0]!) return last[1]!;
  for (let index = 1; index < points.length; index += 1) {
    const [x1, y1] = points[index - 1] as [number, number];
    const [x2, y2] = points[index] as [number, number];
    if (value <= x2) return y1 + ((value - x1) / (x2 - x1)) * (y2 - y1);
  }
  return last[1]!;
}
