/** Time source passed to everything that needs "now", so tests can hold or move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Whole seconds since the epoch (the APIs' times), rounded down. */
export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/** A clock that stands still until moved; for tests and reproducible runs. */
export class ManualClock implements Clock {
  #current: number;

  constructor(start: Date | string) {
    this.#current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#current);
  }

  advance(milliseconds: number): void {
    this.#current += milliseconds;
  }

  set(to: Date | string): void {
    this.#current = new Date(to).getTime();
  }
}
