package dev.cannonade.sample.tomcat;

import dev.cannonade.sample.Api;
import dev.cannonade.sample.Config;
import dev.cannonade.sample.Db;
import dev.cannonade.sample.Exchange;
import dev.cannonade.sample.Reply;
import dev.cannonade.sample.Tls;
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
import org.apache.coyote.http2.Http2Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
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

  /**
   * An NIO connector on `port`: HTTP/1.1, and with HTTP2=on HTTP/2 beside it (h2c by prior
   * knowledge or upgrade on PORT, h2 by ALPN on TLS_PORT).
   */
  static Connector connector(Config config, int port) {
    Connector connector = new Connector("HTTP/1.1");
    connector.setPort(port);
    connector.setProperty("address", config.host());
    connector.setProperty("maxThreads", Integer.toString(config.threads()));
    connector.setProperty("keepAliveTimeout", "30000");
    // Tomcat closes a kept-alive connection after 100 requests by default; Jetty and Node don't.
    connector.setProperty("maxKeepAliveRequests", "-1");
    if (config.http2()) {
      Http2Protocol h2 = new Http2Protocol();
      // As HTTP/1.1's: kept-alive connections survive a load generator's pauses between phases.
      h2.setKeepAliveTimeout(30_000);
      connector.addUpgradeProtocol(h2);
    }
    return connector;
  }

  /** TLS_PORT (TLS=on): the same connector over TLS, with a certificate made now. */
  static Connector tlsConnector(Config config) throws Exception {
    Tls.Identity id = Tls.selfSigned();
    Connector connector = connector(config, config.tlsPort());
    connector.setSecure(true);
    connector.setScheme("https");
    connector.setProperty("SSLEnabled", "true");
    SSLHostConfig host = new SSLHostConfig();
    SSLHostConfigCertificate cert =
        new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.EC);
    cert.setCertificateKeystore(id.keyStore());
    cert.setCertificateKeystorePassword(id.password());
    cert.setCertificateKeyAlias(Tls.ALIAS);
    cert.setCertificateKeyPassword(id.password());
    host.addCertificate(cert);
    connector.addSslHostConfig(host);
    return connector;
  }

  public static void main(String[] args) throws Exception {
    Config config = Config.fromEnv();
    DataSource db = Db.open(config);
    Api api = new Api(config, db);

    Path base = Files.createTempDirectory("cannonade-tomcat");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    Connector connector = connector(config, config.port());
    tomcat.setConnector(connector);
    Connector tls = config.tls() ? tlsConnector(config) : null;
    if (tls != null) tomcat.getService().addConnector(tls);
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
    System.out.println(
        config.listeningLine(
            "tomcat",
            org.apache.catalina.util.ServerInfo.getServerNumber(),
            connector.getLocalPort(),
            tls == null ? -1 : tls.getLocalPort()));
    if (System.getenv("CANNONADE_EXIT_AFTER_START") != null) {
      // Image build: a start-up run that records the loaded classes for CDS (see Dockerfile).
      System.exit(0);
    }
    tomcat.getServer().await();
  }
}
