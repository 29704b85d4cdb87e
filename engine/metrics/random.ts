// The seeded generator of think-time pauses and the test fixtures' noise: engine/config/random.ts's
// (a randomized schedule draws its order from it too, and config imports no other folder).
export { seededRandom } from '../config/random.ts'
