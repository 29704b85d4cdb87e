package dev.cannonade.sample;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The database from a postgres:// URL (the form every stack takes in DATABASE_URL): a HikariCP
 * pool of POOL_SIZE connections, or with POOL_SIZE=0 pgjdbc's plain DataSource, which opens a new
 * connection on every getConnection() and closes it on close() (no pooling).
 */
public final class Db {
  private Db() {}

  /** JDBC URL, user and password of a postgres:// URL. */
  private record Target(String jdbcUrl, String user, String password) {}

  private static Target target(String databaseUrl) {
    URI uri = URI.create(databaseUrl);
    if (!"postgres".equals(uri.getScheme()) && !"postgresql".equals(uri.getScheme())) {
      throw new IllegalArgumentException("DATABASE_URL must start with postgres://");
    }
    String host = uri.getHost() == null ? "127.0.0.1" : uri.getHost();
    int port = uri.getPort() < 0 ? 5432 : uri.getPort();
    String db = uri.getPath() == null || uri.getPath().length() <= 1 ? "postgres" : uri.getPath().substring(1);
    String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
    String user = null;
    String password = null;
    String userInfo = uri.getRawUserInfo();
    if (userInfo != null) {
      int colon = userInfo.indexOf(':');
      user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
      if (colon >= 0) password = decode(userInfo.substring(colon + 1));
    }
    return new Target("jdbc:postgresql://" + host + ":" + port + "/" + db + query, user, password);
  }

  public static DataSource open(Config config) {
    Target t = target(config.databaseUrl());
    if (config.poolSize() == 0) {
      PGSimpleDataSource plain = new PGSimpleDataSource();
      plain.setURL(t.jdbcUrl());
      if (t.user() != null) plain.setUser(t.user());
      if (t.password() != null) plain.setPassword(t.password());
      plain.setConnectTimeout(10);
      return plain;
    }
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(t.jdbcUrl());
    if (t.user() != null) hc.setUsername(t.user());
    if (t.password() != null) hc.setPassword(t.password());
    hc.setMaximumPoolSize(config.poolSize());
    hc.setPoolName("cannonade");
    // Start without the database: /health answers 503 until PostgreSQL accepts connections.
    hc.setInitializationFailTimeout(-1);
    hc.setConnectionTimeout(10_000);
    return new HikariDataSource(hc);
  }

  public static void close(DataSource ds) {
    if (ds instanceof HikariDataSource pool) pool.close();
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
