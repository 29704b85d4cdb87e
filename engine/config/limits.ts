// The bounds of what one config may ask for. A few bytes of config must not become unbounded work:
// `burstSeconds: 1e-9` once asked the profile compiler for 10^14 steps and ran the CLI, serve and
// the wizard's live preview (which compiles as the user types) out of memory. The schema refuses a
// config past a bound naming the field (schema.ts, wire.ts); the compiler checks the same bounds
// before it allocates anything (compile.ts, with plan-bounds.ts), so no caller can skip them.
/** The most app instances a stack runs behind its balancer. */
export const MAX_REPLICAS = 16

export const LIMITS = {
  /** One segment's schedule (a target × round): a week. Also the longest single duration. */
  scheduleSeconds: 7 * 24 * 3600,
  /** Constant-connection steps one profile compiles to. */
  planSteps: 100_000,
  /** The finest step length: below a millisecond no timer keeps the schedule. */
  minStepSeconds: 0.001,
  /**
   * Open-loop rate per target. Its interval is 1000/rate ms: the minimum keeps it far below
   * setTimeout's 2^31−1 ms (beyond which Node fires at once), the maximum above what one
   * generator can send.
   */
  minRate: 0.001,
  maxRate: 1_000_000,
  /** A request count: beyond 2^53 counting is not exact; a trillion is already days at 10M/s. */
  maxRequests: 1_000_000_000_000,
  /** A request body (target or step), in UTF-8 bytes. */
  bodyBytes: 10 * 1024 * 1024,
  headers: 100,
  headerNameLength: 256,
  headerValueLength: 8 * 1024,
  /** A target URL or a step path (after variables), in characters. */
  urlLength: 8 * 1024,
  /** A run's name, its tags (how many, and each one's length) and its note, in characters. */
  nameLength: 200,
  tags: 50,
  tagLength: 64,
  noteLength: 10_000,
  thresholds: 100,
} as const
