package dev.cannonade.sample;

import java.util.Map;

/** Settings from the environment, the same names and defaults as the Node stacks. */
public record Config(
    String host, int port, String databaseUrl, int poolSize, int hashIterations, int threads) {

  public static Config fromEnv() {
    return fromEnv(System.getenv());
  }

  public static Config fromEnv(Map<String, String> env) {
    String host = env.getOrDefault("HOST", "");
    return new Config(
        host.isEmpty() ? "0.0.0.0" : host,
        intVar(env, "PORT", 8080, 0, 65535),
        nonEmpty(env.get("DATABASE_URL"), "postgres://cannonade:cannonade@127.0.0.1:5432/cannonade"),
        intVar(env, "POOL_SIZE", 10, 1, 1000),
        intVar(env, "HASH_ITERATIONS", 1000, 1, 10_000_000),
        intVar(env, "THREADS", 200, 4, 10_000));
  }

  private static String nonEmpty(String value, String fallback) {
    return value == null || value.isEmpty() ? fallback : value;
  }

  private static int intVar(Map<String, String> env, String name, int fallback, int min, int max) {
    String raw = env.get(name);
    if (raw == null || raw.isEmpty()) return fallback;
    if (!raw.matches("\\d{1,10}") || Long.parseLong(raw) < min || Long.parseLong(raw) > max) {
      throw new IllegalArgumentException(
          name + " must be an integer between " + min + " and " + max + ", got \"" + raw + "\"");
    }
    return Integer.parseInt(raw);
  }
}
