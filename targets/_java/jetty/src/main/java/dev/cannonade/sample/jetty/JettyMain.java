package dev.cannonade.sample.jetty;

import dev.cannonade.sample.Api;
import dev.cannonade.sample.Config;
import dev.cannonade.sample.Db;
import dev.cannonade.sample.Exchange;
import dev.cannonade.sample.Reply;
import dev.cannonade.sample.Tls;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import javax.sql.DataSource;

/** java-jetty: embedded Jetty 12 with one plain core Handler (no servlet API), HikariCP, pgjdbc. */
public final class JettyMain {
  private JettyMain() {}

  /** Blocking handler: runs on a pool thread, so JDBC calls and body reads may block. */
  static final class ApiHandler extends Handler.Abstract {
    private final Api api;

    ApiHandler(Api api) {
      super(InvocationType.BLOCKING);
      this.api = api;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      long start = System.nanoTime();
      Reply reply =
          api.handle(
              new Exchange() {
                @Override
                public String method() {
                  return request.getMethod();
                }

                @Override
                public String path() {
                  return request.getHttpURI().getPath();
                }

                @Override
                public String rawQuery() {
                  return request.getHttpURI().getQuery();
                }

                @Override
                public String header(String name) {
                  return request.getHeaders().get(name);
                }

                @Override
                public InputStream body() {
                  return Content.Source.asInputStream(request);
                }
              },
              start);
      response.setStatus(reply.status);
      HttpFields.Mutable headers = response.getHeaders();
      headers.put(HttpHeader.CONTENT_TYPE, reply.contentType);
      headers.put(HttpHeader.CONTENT_LENGTH, reply.length);
      for (String[] h : reply.headers) headers.add(new HttpField(h[0], h[1]));
      if (reply.status == 413) headers.put(HttpHeader.CONNECTION, "close");
      response.write(true, ByteBuffer.wrap(reply.body, 0, reply.length), callback);
      return true;
    }
  }

  /** PORT: HTTP/1.1, and with HTTP2=on HTTP/2 by prior knowledge (h2c) beside it. */
  static ServerConnector plainConnector(Server server, Config config, HttpConfiguration http) {
    HttpConnectionFactory h1 = new HttpConnectionFactory(http);
    ServerConnector connector =
        config.http2()
            ? new ServerConnector(server, h1, new HTTP2CServerConnectionFactory(http))
            : new ServerConnector(server, h1);
    connector.setHost(config.host());
    connector.setPort(config.port());
    connector.setIdleTimeout(30_000);
    return connector;
  }

  /** TLS_PORT (TLS=on): HTTPS with a certificate made now; h2 by ALPN with HTTP2=on, else http/1.1. */
  static ServerConnector tlsConnector(Server server, Config config, HttpConfiguration http)
      throws Exception {
    Tls.Identity id = Tls.selfSigned();
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setKeyStore(id.keyStore());
    ssl.setKeyStorePassword(id.password());
    HttpConfiguration https = new HttpConfiguration(http);
    SecureRequestCustomizer secure = new SecureRequestCustomizer();
    // Clients reach it as 127.0.0.1, which SNI does not carry: no host check against the certificate.
    secure.setSniHostCheck(false);
    https.addCustomizer(secure);
    HttpConnectionFactory h1 = new HttpConnectionFactory(https);
    ServerConnector connector;
    if (config.http2()) {
      ssl.setCipherComparator(HTTP2Cipher.COMPARATOR);
      ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
      alpn.setDefaultProtocol(h1.getProtocol());
      connector =
          new ServerConnector(
              server,
              new SslConnectionFactory(ssl, alpn.getProtocol()),
              alpn,
              new HTTP2ServerConnectionFactory(https),
              h1);
    } else {
      connector = new ServerConnector(server, new SslConnectionFactory(ssl, h1.getProtocol()), h1);
    }
    connector.setHost(config.host());
    connector.setPort(config.tlsPort());
    connector.setIdleTimeout(30_000);
    return connector;
  }

  public static void main(String[] args) throws Exception {
    Config config = Config.fromEnv();
    DataSource db = Db.open(config);
    Api api = new Api(config, db);

    QueuedThreadPool threads = new QueuedThreadPool(config.threads(), Math.min(8, config.threads()));
    threads.setName("jetty");
    Server server = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    ServerConnector connector = plainConnector(server, config, http);
    server.addConnector(connector);
    ServerConnector tls = config.tls() ? tlsConnector(server, config, http) : null;
    if (tls != null) server.addConnector(tls);
    server.setHandler(new ApiHandler(api));
    server.setStopAtShutdown(true);
    server.setStopTimeout(3_000);
    server.start();
    api.listening(connector.getLocalPort());
    System.out.println(
        config.listeningLine(
            "jetty",
            Server.getVersion(),
            connector.getLocalPort(),
            tls == null ? -1 : tls.getLocalPort()));
    if (System.getenv("CANNONADE_EXIT_AFTER_START") != null) {
      // Image build: a start-up run that records the loaded classes for CDS (see Dockerfile).
      server.stop();
      Db.close(db);
      System.exit(0);
    }
    server.join();
    Db.close(db);
  }
}
