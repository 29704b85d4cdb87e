package bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/** Jetty 12 at its defaults (a ServerConnector, its thread pool), one handler answering "ok". Usage: JettyServer PORT. */
public final class JettyServer {
  public static void main(String[] args) throws Exception {
    Count count = new Count();
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(Integer.parseInt(args[0]));
    server.addConnector(connector);
    server.setHandler(new Handler.Abstract() {
      @Override
      public boolean handle(Request req, Response res, Callback callback) {
        String path = req.getHttpURI().getPath();
        String body = "ok";
        if (path.equals("/__count") || path.equals("/__zero")) {
          if (path.equals("/__zero")) count.zero();
          body = count.json();
        } else {
          count.request(Request.getRemoteAddr(req) + ":" + Request.getRemotePort(req));
        }
        res.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
        res.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
        return true;
      }
    });
    server.start();
    System.out.println("listening " + args[0]);
    server.join();
  }
}
