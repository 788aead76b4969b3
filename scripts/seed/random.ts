export { rng } from '../../engine/src/random';
