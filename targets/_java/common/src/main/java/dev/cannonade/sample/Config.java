package dev.cannonade.sample;

import java.util.Map;

/**
 * Settings from the environment, the same names, defaults and limits as the Node stacks
 * (targets/_node/config.ts). poolSize 0 = no pool: a connection per request. chainUrl null = this
 * server itself. splitThreads: the threads /compute?split=K hands its parts to. http2 (HTTP2=on):
 * the port also takes HTTP/2 by prior knowledge (h2c), and TLS offers h2 by ALPN; tls (TLS=on):
 * HTTPS on tlsPort too, with a certificate made at start-up (Tls.java).
 */
public record Config(
    String host,
    int port,
    String databaseUrl,
    int poolSize,
    int hashIterations,
    int threads,
    int chainDepth,
    String chainUrl,
    int splitThreads,
    boolean http2,
    boolean tls,
    int tlsPort) {

  public static final int MAX_CHAIN_DEPTH = 16;

  public static Config fromEnv() {
    return fromEnv(System.getenv());
  }

  public static Config fromEnv(Map<String, String> env) {
    String host = env.getOrDefault("HOST", "");
    String chainUrl = env.getOrDefault("CHAIN_URL", "");
    if (!chainUrl.isEmpty() && !chainUrl.matches("http://[^/?#\\s]+/?")) {
      throw new IllegalArgumentException(
          "CHAIN_URL must be http://host:port (no path), got \"" + chainUrl + "\"");
    }
    return new Config(
        host.isEmpty() ? "0.0.0.0" : host,
        intVar(env, "PORT", 8080, 0, 65535),
        nonEmpty(env.get("DATABASE_URL"), "postgres://cannonade:cannonade@127.0.0.1:5432/cannonade"),
        intVar(env, "POOL_SIZE", 10, 0, 1000),
        intVar(env, "HASH_ITERATIONS", 1000, 1, 10_000_000),
        intVar(env, "THREADS", 200, 4, 10_000),
        intVar(env, "CHAIN_DEPTH", 0, 0, MAX_CHAIN_DEPTH),
        chainUrl.isEmpty() ? null : chainUrl.replaceAll("/$", ""),
        intVar(env, "SPLIT_THREADS", 2, 1, 256),
        onOff(env, "HTTP2"),
        onOff(env, "TLS"),
        intVar(env, "TLS_PORT", 8443, 0, 65535));
  }

  /**
   * The line a Java stack prints once it listens, the same for Jetty and Tomcat: `server` and its
   * `version`, the plain `port` and its protocols, the TLS port when there is one (`tlsPort` -1:
   * none), the threads and the pool.
   */
  public String listeningLine(String server, String version, int port, int tlsPort) {
    return String.format(
        "[app] %s %s listening on %s:%d, %s%s (threads %d, pool %d)",
        server,
        version,
        host,
        port,
        http2 ? "HTTP/1.1 and h2c" : "HTTP/1.1",
        tlsPort < 0 ? "" : ", TLS (" + (http2 ? "h2, http/1.1" : "http/1.1") + ") on " + tlsPort,
        threads,
        poolSize);
  }

  /** "on" or "off" (empty or unset: off). */
  private static boolean onOff(Map<String, String> env, String name) {
    String raw = env.getOrDefault(name, "");
    if (!raw.isEmpty() && !raw.equals("on") && !raw.equals("off")) {
      throw new IllegalArgumentException(name + " must be on or off, got \"" + raw + "\"");
    }
    return raw.equals("on");
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
