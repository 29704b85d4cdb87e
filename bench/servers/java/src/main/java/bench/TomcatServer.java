package bench;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;

/**
 * Embedded Tomcat at its defaults (the NIO connector: maxKeepAliveRequests 100, keepAliveTimeout
 * 60 s, 200 threads), one servlet answering "ok". Usage: TomcatServer PORT.
 */
public final class TomcatServer {
  public static void main(String[] args) throws Exception {
    Count count = new Count();
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(Files.createTempDirectory("bench-tomcat").toString());
    tomcat.setPort(Integer.parseInt(args[0]));
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    Context ctx = tomcat.addContext("", null);
    Tomcat.addServlet(ctx, "ok", new HttpServlet() {
      @Override
      protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String uri = req.getRequestURI();
        if (uri.equals("/__count") || uri.equals("/__zero")) {
          if (uri.equals("/__zero")) count.zero();
          res.setContentType("application/json");
          res.getWriter().write(count.json());
          return;
        }
        count.request(req.getRemoteAddr() + ":" + req.getRemotePort());
        res.setContentType("text/plain");
        res.getWriter().write("ok");
      }
    });
    ctx.addServletMappingDecoded("/*", "ok");
    tomcat.start();
    System.out.println("listening " + args[0]);
    tomcat.getServer().await();
  }
}
