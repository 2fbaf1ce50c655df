export type { MacroComponent, MacroRegime, MacroStress, MacroStressParameters } from './macro-stress.js';
export { computeMacroStress } from './macro-stress.js';
