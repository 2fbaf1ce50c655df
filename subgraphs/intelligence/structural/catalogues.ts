import cyclesJson from '../data/structural/cycles.json' with { type: 'json' };
import faultLinesJson from '../data/structural/fault-lines.json' with { type: 'json' };
import { type CycleCatalogue, type FaultLineCatalogue, parseCycleCatalogue, parseFaultLineCatalogue } from './domain/index.js';

/**
 * The structural family's node and edge catalogues as shipped (data/structural/): read and checked
 * once. The causal graph lists the fault lines and their couplings from here.
 */
let faultLines: FaultLineCatalogue | undefined;
let cycles: CycleCatalogue | undefined;

/** The 21 fault lines of GET /tectonic and the couplings along which their stress transfers. */
export function faultLineCatalogue(): FaultLineCatalogue {
  faultLines ??= parseFaultLineCatalogue(faultLinesJson);
  return faultLines;
}

/** The 28 cycles of GET /resonance, each with its band and its series or the input it misses. */
export function cycleCatalogue(): CycleCatalogue {
  cycles ??= parseCycleCatalogue(cyclesJson);
  return cycles;
}
