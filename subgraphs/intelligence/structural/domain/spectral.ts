/**
 * Phase of a cycle by the analytic signal (Gabor 1946): the series is detrended, band-passed to the
 * cycle's band of periods in the frequency domain and its analytic signal z = x + i·H[x] formed by
 * the discrete Hilbert transform of Marple (1999, "Computing the discrete-time analytic signal via
 * FFT", IEEE Trans. Signal Processing 47(9)): positive-frequency bins doubled, negative ones zeroed.
 * Doing both in one pass keeps only the positive in-band bins, doubled. The phase is arg z, the
 * amplitude the envelope |z|. A small discrete Fourier transform is written here (the project has no
 * FFT dependency): only the in-band bins are computed, O(n · bins), a few hundred samples per cycle.
 */
export interface AnalyticSignal {
  /** The band-passed series (real part of z). */
  filtered: number[];
  /** Instantaneous phase in radians, (-π, π]; 0 at a peak of the filtered series, ±π at a trough. */
  phase: number[];
  /** Instantaneous amplitude |z|. */
  envelope: number[];
}

export interface Band {
  /** Shortest period kept, in years. */
  minYears: number;
  /** Longest period kept, in years. */
  maxYears: number;
}

/** Wraps an angle to (-π, π]. */
export function wrapAngle(angle: number): number {
  const wrapped = angle - 2 * Math.PI * Math.floor((angle + Math.PI) / (2 * Math.PI));
  return wrapped === -Math.PI ? Math.PI : wrapped;
}

/** The series less its least-squares line (a trend would leak into every low-frequency bin). */
export function detrend(values: readonly number[]): number[] {
  const n = values.length;
  const meanT = (n - 1) / 2;
  const meanX = values.reduce((sum, value) => sum + value, 0) / n;
  let covariance = 0;
  let variance = 0;
  values.forEach((value, t) => {
    covariance += (t - meanT) * (value - meanX);
    variance += (t - meanT) ** 2;
  });
  const slope = variance === 0 ? 0 : covariance / variance;
  return values.map((value, t) => value - meanX - slope * (t - meanT));
}

/** Indexes k of the positive-frequency DFT bins whose period n·Δt / k lies in the band. */
export function bandBins(n: number, samplesPerYear: number, band: Band): number[] {
  const bins: number[] = [];
  for (let k = 1; k < n / 2; k++) {
    const periodYears = n / samplesPerYear / k;
    if (periodYears >= band.minYears && periodYears <= band.maxYears) bins.push(k);
  }
  return bins;
}

/** The method: the least-squares line removed, then the band-passed analytic signal. */
export function analyticSignal(values: readonly number[], samplesPerYear: number, band: Band): AnalyticSignal {
  return bandPassedAnalyticSignal(detrend(values), samplesPerYear, band);
}

/**
 * The band-passed analytic signal of a series as given. Exact for a sinusoid with a whole number of
 * cycles in the window; the detrending step before it takes a small share of a cycle with it (the
 * line fitted to a cosine is not flat), a phase error that falls with the number of cycles.
 */
export function bandPassedAnalyticSignal(x: readonly number[], samplesPerYear: number, band: Band): AnalyticSignal {
  const n = x.length;
  const cos = Array.from({ length: n }, (_, j) => Math.cos((2 * Math.PI * j) / n));
  const sin = Array.from({ length: n }, (_, j) => Math.sin((2 * Math.PI * j) / n));
  const spectrum = bandBins(n, samplesPerYear, band).map((k) => {
    let re = 0;
    let im = 0;
    for (let t = 0; t < n; t++) {
      const j = (k * t) % n;
      re += x[t]! * cos[j]!;
      im -= x[t]! * sin[j]!;
    }
    return { k, re, im };
  });
  const filtered: number[] = [];
  const phase: number[] = [];
  const envelope: number[] = [];
  for (let t = 0; t < n; t++) {
    let re = 0;
    let im = 0;
    for (const bin of spectrum) {
      const j = (bin.k * t) % n;
      // (2/n) · X[k] · e^{+2πikt/n}: the inverse transform of the doubled positive bins.
      re += bin.re * cos[j]! - bin.im * sin[j]!;
      im += bin.re * sin[j]! + bin.im * cos[j]!;
    }
    re *= 2 / n;
    im *= 2 / n;
    filtered.push(re);
    phase.push(Math.atan2(im, re));
    envelope.push(Math.hypot(re, im));
  }
  return { filtered, phase, envelope };
}

/** The phase as a continuous curve: each step taken as its wrapped difference. */
export function unwrap(phase: readonly number[]): number[] {
  const out: number[] = [];
  phase.forEach((value, index) => out.push(index === 0 ? value : out[index - 1]! + wrapAngle(value - phase[index - 1]!)));
  return out;
}
