package dev.cannonade.sample;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** A HikariCP pool made from a postgres:// URL (the form every stack takes in DATABASE_URL). */
public final class Db {
  private Db() {}

  public static HikariDataSource pool(Config config) {
    URI uri = URI.create(config.databaseUrl());
    if (!"postgres".equals(uri.getScheme()) && !"postgresql".equals(uri.getScheme())) {
      throw new IllegalArgumentException("DATABASE_URL must start with postgres://");
    }
    HikariConfig hc = new HikariConfig();
    String host = uri.getHost() == null ? "127.0.0.1" : uri.getHost();
    int port = uri.getPort() < 0 ? 5432 : uri.getPort();
    String db = uri.getPath() == null || uri.getPath().length() <= 1 ? "postgres" : uri.getPath().substring(1);
    String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
    hc.setJdbcUrl("jdbc:postgresql://" + host + ":" + port + "/" + db + query);
    String userInfo = uri.getRawUserInfo();
    if (userInfo != null) {
      int colon = userInfo.indexOf(':');
      hc.setUsername(decode(colon < 0 ? userInfo : userInfo.substring(0, colon)));
      if (colon >= 0) hc.setPassword(decode(userInfo.substring(colon + 1)));
    }
    hc.setMaximumPoolSize(config.poolSize());
    hc.setPoolName("cannonade");
    // Start without the database: /health answers 503 until PostgreSQL accepts connections.
    hc.setInitializationFailTimeout(-1);
    hc.setConnectionTimeout(10_000);
    return new HikariDataSource(hc);
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
