package dev.cannonade.sample.jetty;

import dev.cannonade.sample.Api;
import dev.cannonade.sample.Config;
import dev.cannonade.sample.Db;
import dev.cannonade.sample.Exchange;
import dev.cannonade.sample.Reply;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
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

  public static void main(String[] args) throws Exception {
    Config config = Config.fromEnv();
    DataSource db = Db.open(config);
    Api api = new Api(config, db);

    QueuedThreadPool threads = new QueuedThreadPool(config.threads(), Math.min(8, config.threads()));
    threads.setName("jetty");
    Server server = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost(config.host());
    connector.setPort(config.port());
    connector.setIdleTimeout(30_000);
    server.addConnector(connector);
    server.setHandler(new ApiHandler(api));
    server.setStopAtShutdown(true);
    server.setStopTimeout(3_000);
    server.start();
    api.listening(connector.getLocalPort());
    System.out.printf(
        "[app] jetty %s listening on %s:%d (threads %d, pool %d)%n",
        Server.getVersion(), config.host(), connector.getLocalPort(), config.threads(), config.poolSize());
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
