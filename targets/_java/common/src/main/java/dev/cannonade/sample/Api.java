package dev.cannonade.sample;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The Cannonade sample API, independent of the HTTP runtime: Jetty's Handler and Tomcat's servlet
 * both turn their request into an {@link Exchange} and write the {@link Reply} this returns. Same
 * routes, limits, SQL and error messages as targets/_node/app.ts: keep the two in step.
 */
public final class Api {
  public static final int MAX_BODY_BYTES = 1 << 20;
  public static final int MAX_PAYLOAD_BYTES = 10 << 20;
  public static final int MAX_COMPUTE_ITERATIONS = 1_000_000;
  public static final int MAX_SPLIT = 64;
  public static final int MAX_LIMIT = 1000;
  public static final String COMPUTE_PASSWORD = "cannonade";
  public static final byte[] COMPUTE_SALT = "cannonade-salt".getBytes(StandardCharsets.UTF_8);

  private static final String JSON = "application/json";
  private static final String AD_COLUMNS =
      "id, title, body, price::text AS price,"
          + " to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS created_at";
  private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Pattern DIGITS = Pattern.compile("\\d{1,10}");
  private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x1f\\x7f]");
  private static final Pattern BEARER =
      Pattern.compile("^Bearer\\s+([A-Za-z0-9._~+/=-]+)\\s*$", Pattern.CASE_INSENSITIVE);
  private static final BigDecimal MAX_PRICE = new BigDecimal("1e10");

  private static final byte[] PAYLOAD = new byte[MAX_PAYLOAD_BYTES];

  static {
    Arrays.fill(PAYLOAD, (byte) 'x');
  }

  private final Config config;
  private final DataSource db;
  private final boolean pooled;
  private final Split split;
  private final Metrics metrics = new Metrics();
  private volatile Chain chain;
  private final ObjectMapper mapper =
      new ObjectMapper()
          .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  public Api(Config config, DataSource db) {
    this.config = config;
    this.db = db;
    this.pooled = config.poolSize() > 0;
    this.split = new Split(config.splitThreads());
    // Known before the first request whenever the port is (always, but for PORT=0): a request
    // must never be handled unchained because the server answered before listening() ran.
    if (config.chainUrl() != null || config.port() != 0) listening(config.port());
  }

  /** The runtime is listening on {@code port}: a chain without CHAIN_URL calls this server itself. */
  public void listening(int port) {
    if (config.chainDepth() > 0 && chain == null) {
      String self = "http://127.0.0.1:" + port;
      chain = new Chain(config.chainDepth(), config.chainUrl() == null ? self : config.chainUrl());
    }
  }

  /** One ad as JSON: price keeps the database's two decimals, created_at is UTC ISO-8601. */
  public record Ad(
      int id, String title, String body, BigDecimal price, @JsonProperty("created_at") String createdAt) {}

  /**
   * Per-request timing (handler start, nanoseconds in database calls) and, without a pool, the
   * request's own connection, opened by its first query and closed before the answer goes out.
   */
  private static final class Timing {
    final long start;
    long dbNanos;
    Connection own;

    Timing(long start) {
      this.start = start;
    }
  }

  @FunctionalInterface
  private interface Sql<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Connection checkout + statement, timed into Server-Timing's db (like pool.query in Node);
   * without a pool, the request's own connection (opening it is database time too).
   */
  private <T> T sql(Timing t, Sql<T> work) {
    long began = System.nanoTime();
    try {
      if (!pooled) {
        if (t.own == null) t.own = db.getConnection();
        return work.run(t.own);
      }
      try (Connection c = db.getConnection()) {
        return work.run(c);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    } finally {
      t.dbNanos += System.nanoTime() - began;
    }
  }

  private static void release(Timing t) {
    if (t.own == null) return;
    long began = System.nanoTime();
    try {
      t.own.close();
    } catch (SQLException e) {
      System.err.println("[db] close: " + e.getMessage());
    } finally {
      t.own = null;
      t.dbNanos += System.nanoTime() - began;
    }
  }

  /**
   * Handles one request. {@code startNanos} is {@link System#nanoTime()} when the runtime handed
   * the request over; the Server-Timing app duration runs from there to the reply being ready.
   */
  public Reply handle(Exchange ex, long startNanos) {
    Timing t = new Timing(startNanos);
    Reply reply;
    try {
      Chain c = chain;
      // /health and /metrics are this server's own: never passed down a chain.
      boolean own = ex.path().equals("/health") || ex.path().equals("/metrics");
      int hop = c == null || own ? -1 : c.hopOf(ex);
      if (hop >= 0 && hop < c.depth()) {
        long[] downstreamDb = {0};
        reply = c.forward(ex, readBody(ex, MAX_PAYLOAD_BYTES), hop + 1, downstreamDb);
        t.dbNanos += downstreamDb[0];
      } else {
        reply = route(ex, t);
      }
    } catch (ApiException e) {
      reply = error(e.status, e.getMessage());
      if (e.headerName != null) reply.header(e.headerName, e.headerValue);
    } catch (RuntimeException e) {
      System.err.println("[app] " + ex.method() + " " + ex.path() + ": " + e);
      reply = error(500, "internal server error");
    } finally {
      release(t);
    }
    long now = System.nanoTime();
    String timing =
        String.format(Locale.ROOT, "app;dur=%.3f, db;dur=%.3f", (now - t.start) / 1e6, t.dbNanos / 1e6);
    reply.header("Server-Timing", reply.timing == null ? timing : timing + ", " + reply.timing);
    String correlation = ex.header("x-correlation-id");
    if (correlation != null) reply.header("x-correlation-id", correlation);
    metrics.record(ex.method(), ex.path(), reply.status, (System.nanoTime() - t.start) / 1e9);
    return reply;
  }

  private Reply route(Exchange ex, Timing t) {
    String path = ex.path();
    String method = ex.method();
    switch (path) {
      case "/health":
        only(method, "GET");
        return health(t);
      case "/metrics":
        only(method, "GET");
        return new Reply(200, Metrics.CONTENT_TYPE, metrics.render());
      case "/ads":
        if ("GET".equals(method)) return listAds(params(ex), t);
        if ("POST".equals(method)) return createAd(readJson(ex), t);
        throw new ApiException(405, "method not allowed", "Allow", "GET, POST");
      case "/compute":
        only(method, "GET");
        return compute(params(ex));
      case "/payload":
        if ("GET".equals(method)) return payload(params(ex));
        if ("POST".equals(method)) return json(200, Payloads.receive(ex, MAX_PAYLOAD_BYTES, mapper));
        throw new ApiException(405, "method not allowed", "Allow", "GET, POST");
      case "/users":
        only(method, "POST");
        return register(readJson(ex), t);
      case "/login":
        only(method, "POST");
        return login(readJson(ex), t);
      case "/me":
        only(method, "GET");
        return me(ex.header("authorization"), t);
      default:
        if (path.startsWith("/ads/")) {
          only(method, "GET");
          return getAd(path.substring(5), t);
        }
        throw new ApiException(404, "no route for " + path);
    }
  }

  private Reply health(Timing t) {
    try {
      sql(t, c -> {
        try (PreparedStatement st = c.prepareStatement("SELECT 1")) {
          st.executeQuery().close();
        }
        return null;
      });
      return json(200, Map.of("status", "ok"));
    } catch (RuntimeException e) {
      Map<String, String> body = new HashMap<>();
      body.put("status", "unavailable");
      body.put("error", String.valueOf(e.getMessage()));
      return json(503, body);
    }
  }

  private Reply listAds(Map<String, String> params, Timing t) {
    int limit = intParam(params, "limit", 20, 1, MAX_LIMIT);
    int offset = intParam(params, "offset", 0, 0, 2_000_000_000);
    String format = params.getOrDefault("format", "json");
    if (!"json".equals(format) && !"text".equals(format)) {
      throw new ApiException(400, "format must be json or text");
    }
    List<Ad> ads =
        sql(t, c -> {
          try (PreparedStatement st =
              c.prepareStatement("SELECT " + AD_COLUMNS + " FROM ads ORDER BY id LIMIT ? OFFSET ?")) {
            st.setInt(1, limit);
            st.setInt(2, offset);
            try (ResultSet rs = st.executeQuery()) {
              List<Ad> list = new ArrayList<>(limit);
              while (rs.next()) list.add(ad(rs));
              return list;
            }
          }
        });
    if ("text".equals(format)) {
      StringBuilder sb = new StringBuilder(ads.size() * 48);
      for (Ad ad : ads) {
        sb.append(ad.id()).append('\t').append(ad.title()).append('\t');
        sb.append(ad.price().toPlainString()).append('\n');
      }
      return new Reply(200, "text/plain; charset=utf-8", sb.toString().getBytes(StandardCharsets.UTF_8));
    }
    return json(200, ads);
  }

  private Reply getAd(String rawId, Timing t) {
    if (!DIGITS.matcher(rawId).matches()
        || Long.parseLong(rawId) < 1
        || Long.parseLong(rawId) > Integer.MAX_VALUE) {
      throw new ApiException(400, "id must be a positive integer");
    }
    int id = Integer.parseInt(rawId);
    Ad ad =
        sql(t, c -> {
          try (PreparedStatement st = c.prepareStatement("SELECT " + AD_COLUMNS + " FROM ads WHERE id = ?")) {
            st.setInt(1, id);
            try (ResultSet rs = st.executeQuery()) {
              return rs.next() ? ad(rs) : null;
            }
          }
        });
    if (ad == null) throw new ApiException(404, "ad " + rawId + " not found");
    return json(200, ad);
  }

  private Reply createAd(JsonNode body, Timing t) {
    String title = stringField(body, "title", 1, 200);
    if (CONTROL.matcher(title).find() || title.trim().isEmpty()) {
      throw new ApiException(400, "title must be non-blank and without control characters");
    }
    String text = stringField(body, "body", 0, 10_000);
    JsonNode priceNode = body.get("price");
    if (priceNode == null
        || !priceNode.isNumber()
        || priceNode.decimalValue().signum() < 0
        || priceNode.decimalValue().compareTo(MAX_PRICE) >= 0) {
      throw new ApiException(400, "price must be a number between 0 and 9999999999.99");
    }
    BigDecimal price = priceNode.decimalValue();
    Ad ad =
        sql(t, c -> {
          try (PreparedStatement st =
              c.prepareStatement(
                  "INSERT INTO ads (title, body, price) VALUES (?, ?, round(?::numeric, 2)) RETURNING "
                      + AD_COLUMNS)) {
            st.setString(1, title);
            st.setString(2, text);
            st.setBigDecimal(3, price);
            try (ResultSet rs = st.executeQuery()) {
              rs.next();
              return ad(rs);
            }
          }
        });
    return json(201, ad).header("Location", "/ads/" + ad.id());
  }

  private Reply compute(Map<String, String> params) {
    int iterations = intParam(params, "iterations", 1000, 1, MAX_COMPUTE_ITERATIONS);
    Map<String, Object> body = new java.util.LinkedHashMap<>();
    body.put("iterations", iterations);
    if (!params.containsKey("split")) {
      body.put("hash", Passwords.hex(Passwords.pbkdf2(COMPUTE_PASSWORD, COMPUTE_SALT, iterations, 32)));
      return json(200, body);
    }
    int parts = intParam(params, "split", 1, 1, Math.min(MAX_SPLIT, iterations));
    Split.Result r = split.run(iterations, parts);
    body.put("split", parts);
    body.put("hash", r.hash());
    body.put("workers", r.workers());
    return json(200, body);
  }

  private Reply payload(Map<String, String> params) {
    int bytes = intParam(params, "bytes", 1024, 0, MAX_PAYLOAD_BYTES);
    return new Reply(200, "application/octet-stream", PAYLOAD, bytes);
  }

  private Reply register(JsonNode body, Timing t) {
    JsonNode username = body.get("username");
    if (username == null || !username.isTextual() || !USERNAME.matcher(username.asText()).matches()) {
      throw new ApiException(400, "username must be 1 to 64 characters of A-Z a-z 0-9 _ . -");
    }
    String name = username.asText();
    String password = stringField(body, "password", 1, 1024);
    String hash = Passwords.hash(password, config.hashIterations());
    Integer id =
        sql(t, c -> {
          try (PreparedStatement st =
              c.prepareStatement(
                  "INSERT INTO users (username, password_hash) VALUES (?, ?)"
                      + " ON CONFLICT (username) DO NOTHING RETURNING id")) {
            st.setString(1, name);
            st.setString(2, hash);
            try (ResultSet rs = st.executeQuery()) {
              return rs.next() ? rs.getInt(1) : null;
            }
          }
        });
    if (id == null) throw new ApiException(409, "user " + name + " already exists");
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    out.put("id", id);
    out.put("username", name);
    return json(201, out);
  }

  private Reply login(JsonNode body, Timing t) {
    String username = stringField(body, "username", 1, 64);
    String password = stringField(body, "password", 1, 1024);
    Object[] user =
        sql(t, c -> {
          try (PreparedStatement st =
              c.prepareStatement("SELECT id, password_hash FROM users WHERE username = ?")) {
            st.setString(1, username);
            try (ResultSet rs = st.executeQuery()) {
              return rs.next() ? new Object[] {rs.getInt(1), rs.getString(2)} : null;
            }
          }
        });
    if (user == null || !Passwords.verify(password, (String) user[1])) {
      throw new ApiException(401, "invalid username or password");
    }
    String token = Passwords.token();
    sql(t, c -> {
      try (PreparedStatement st = c.prepareStatement("INSERT INTO sessions (token, user_id) VALUES (?, ?)")) {
        st.setString(1, token);
        st.setInt(2, (Integer) user[0]);
        return st.executeUpdate();
      }
    });
    return json(200, Map.of("token", token));
  }

  private Reply me(String authorization, Timing t) {
    Matcher m = BEARER.matcher(authorization == null ? "" : authorization);
    if (!m.matches()) throw unauthorized();
    String token = m.group(1);
    String username =
        sql(t, c -> {
          try (PreparedStatement st =
              c.prepareStatement(
                  "SELECT u.username FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token = ?")) {
            st.setString(1, token);
            try (ResultSet rs = st.executeQuery()) {
              return rs.next() ? rs.getString(1) : null;
            }
          }
        });
    if (username == null) throw unauthorized();
    return json(200, Map.of("username", username));
  }

  private static ApiException unauthorized() {
    return new ApiException(401, "a valid bearer token is required", "WWW-Authenticate", "Bearer");
  }

  // --- helpers ------------------------------------------------------------------------------

  private static Ad ad(ResultSet rs) throws SQLException {
    return new Ad(
        rs.getInt(1), rs.getString(2), rs.getString(3), new BigDecimal(rs.getString(4)), rs.getString(5));
  }

  private static void only(String method, String allowed) {
    if (!allowed.equals(method)) throw new ApiException(405, "method not allowed", "Allow", allowed);
  }

  private Reply json(int status, Object value) {
    try {
      return new Reply(status, JSON, mapper.writeValueAsBytes(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private Reply error(int status, String message) {
    return json(status, Map.of("error", message == null ? "error" : message));
  }

  /** Query parameters like URLSearchParams.get: first value wins, '+' is a space. */
  private static Map<String, String> params(Exchange ex) {
    String raw = ex.rawQuery();
    Map<String, String> map = new HashMap<>();
    if (raw == null || raw.isEmpty()) return map;
    try {
      for (String pair : raw.split("&")) {
        if (pair.isEmpty()) continue;
        int eq = pair.indexOf('=');
        String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        map.putIfAbsent(key, value);
      }
    } catch (IllegalArgumentException e) {
      throw new ApiException(400, "malformed query string");
    }
    return map;
  }

  private static int intParam(Map<String, String> params, String name, int fallback, int min, int max) {
    String raw = params.get(name);
    if (raw == null) return fallback;
    if (!DIGITS.matcher(raw).matches() || Long.parseLong(raw) < min || Long.parseLong(raw) > max) {
      throw new ApiException(400, name + " must be an integer between " + min + " and " + max);
    }
    return Integer.parseInt(raw);
  }

  /** The whole body; 413 past {@code limit} bytes. */
  static byte[] readBody(Exchange ex, int limit) {
    byte[] bytes;
    try (InputStream in = ex.body()) {
      bytes = in.readNBytes(limit + 1);
    } catch (IOException e) {
      throw new ApiException(400, "could not read the request body");
    }
    if (bytes.length > limit) {
      throw new ApiException(413, "request body larger than " + limit + " bytes");
    }
    return bytes;
  }

  private JsonNode readJson(Exchange ex) {
    byte[] bytes = readBody(ex, MAX_BODY_BYTES);
    JsonNode node;
    try {
      node = bytes.length == 0 ? null : mapper.readTree(bytes);
      if (node == null || node.isMissingNode()) throw new IOException("empty");
    } catch (IOException e) {
      throw new ApiException(400, "request body must be valid JSON");
    }
    if (!node.isObject()) throw new ApiException(400, "request body must be a JSON object");
    return node;
  }

  private static String stringField(JsonNode body, String name, int min, int max) {
    JsonNode node = body.get(name);
    if (node == null || !node.isTextual() || node.asText().length() < min || node.asText().length() > max) {
      throw new ApiException(400, name + " must be a string of " + min + " to " + max + " characters");
    }
    return node.asText();
  }
}
