/** True when A and B are the same type (a compile-time check that a response schema and its domain type agree). */
export type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
