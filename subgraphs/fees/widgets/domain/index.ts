// The widgets' pure logic: the state of each USD corridor.
export { type Corridor, type CorridorInput, type CorridorParameters, type CorridorState, corridorStates } from './corridors.js';
