// The widgets' pure logic: the state of each USD corridor.
export { corridorStates, type Corridor, type CorridorInput, type CorridorParameters, type CorridorState } from './corridors.js';
