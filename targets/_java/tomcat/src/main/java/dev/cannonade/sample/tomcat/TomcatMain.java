package dev.cannonade.sample.tomcat;

import dev.cannonade.sample.Api;
import dev.cannonade.sample.Config;
import dev.cannonade.sample.Db;
import dev.cannonade.sample.Exchange;
import dev.cannonade.sample.Reply;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import javax.sql.DataSource;

/** java-tomcat: embedded Tomcat with one plain HttpServlet mapped to "/", HikariCP, pgjdbc. */
public final class TomcatMain {
  private TomcatMain() {}

  static final class ApiServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final transient Api api;

    ApiServlet(Api api) {
      this.api = api;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      long start = System.nanoTime();
      Reply reply =
          api.handle(
              new Exchange() {
                @Override
                public String method() {
                  return req.getMethod();
                }

                @Override
                public String path() {
                  return req.getRequestURI();
                }

                @Override
                public String rawQuery() {
                  return req.getQueryString();
                }

                @Override
                public String header(String name) {
                  return req.getHeader(name);
                }

                @Override
                public InputStream body() throws IOException {
                  return req.getInputStream();
                }
              },
              start);
      resp.setStatus(reply.status);
      resp.setContentType(reply.contentType);
      resp.setContentLength(reply.length);
      for (String[] h : reply.headers) resp.addHeader(h[0], h[1]);
      if (reply.status == 413) resp.setHeader("Connection", "close");
      resp.getOutputStream().write(reply.body, 0, reply.length);
    }
  }

  public static void main(String[] args) throws Exception {
    Config config = Config.fromEnv();
    DataSource db = Db.open(config);
    Api api = new Api(config, db);

    Path base = Files.createTempDirectory("cannonade-tomcat");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    Connector connector = new Connector("HTTP/1.1");
    connector.setPort(config.port());
    connector.setProperty("address", config.host());
    connector.setProperty("maxThreads", Integer.toString(config.threads()));
    connector.setProperty("keepAliveTimeout", "30000");
    // Tomcat closes a kept-alive connection after 100 requests by default; Jetty and Node don't.
    connector.setProperty("maxKeepAliveRequests", "-1");
    tomcat.setConnector(connector);
    Context ctx = tomcat.addContext("", base.toString());
    Tomcat.addServlet(ctx, "api", new ApiServlet(api));
    ctx.addServletMappingDecoded("/", "api");
    tomcat.start();
    api.listening(connector.getLocalPort());
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    tomcat.stop();
                    tomcat.destroy();
                  } catch (Exception e) {
                    System.err.println("[app] stop: " + e);
                  }
                  Db.close(db);
                }));
    System.out.printf(
        "[app] tomcat %s listening on %s:%d (threads %d, pool %d)%n",
        org.apache.catalina.util.ServerInfo.getServerNumber(),
        config.host(),
        connector.getLocalPort(),
        config.threads(),
        config.poolSize());
    if (System.getenv("CANNONADE_EXIT_AFTER_START") != null) {
      // Image build: a start-up run that records the loaded classes for CDS (see Dockerfile).
      System.exit(0);
    }
    tomcat.getServer().await();
  }
}
