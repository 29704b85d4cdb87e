package dev.cannonade.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Chained services, the same protocol as targets/_node/chain.ts: with CHAIN_DEPTH=D a
 * request is passed on over HTTP D times (to CHAIN_URL, or to this server itself) before the last
 * hop handles it. The hop number travels in x-cannonade-hop; Server-Timing gains `hopN;dur=` per
 * hop (how long hop N-1 waited for hop N) and db is the working hop's database time.
 */
public final class Chain {
  public static final String HOP_HEADER = "x-cannonade-hop";
  private static final String[] FORWARDED_REQUEST = {"content-type", "authorization", "x-correlation-id"};
  private static final String[] FORWARDED_RESPONSE = {"location", "allow", "www-authenticate"};
  private static final Pattern ENTRY = Pattern.compile("^([A-Za-z0-9]+);dur=([\\d.]+)$");
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final int depth;
  private final String baseUrl;
  // HTTP/1.1 with kept-alive connections between hops, as services calling each other keep them.
  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();

  public Chain(int depth, String baseUrl) {
    this.depth = depth;
    this.baseUrl = baseUrl;
  }

  public int depth() {
    return depth;
  }

  /** The hop this request is at (0 at the entry); 400 on a malformed header. */
  public int hopOf(Exchange ex) {
    String raw = ex.header(HOP_HEADER);
    if (raw == null) return 0;
    if (!raw.matches("\\d{1,2}") || Integer.parseInt(raw) > depth) {
      throw new ApiException(400, HOP_HEADER + " must be an integer between 0 and " + depth);
    }
    return Integer.parseInt(raw);
  }

  /** The next hop's answer, as this hop's reply; adds its database time to {@code dbNanos[0]}. */
  public Reply forward(Exchange ex, byte[] body, int nextHop, long[] dbNanos) {
    String query = ex.rawQuery();
    URI uri = URI.create(baseUrl + ex.path() + (query == null ? "" : "?" + query));
    HttpRequest.Builder req =
        HttpRequest.newBuilder(uri)
            .timeout(TIMEOUT)
            .header(HOP_HEADER, Integer.toString(nextHop))
            .method(
                ex.method(),
                body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    for (String name : FORWARDED_REQUEST) {
      String v = ex.header(name);
      if (v != null) req.header(name, v);
    }
    long began = System.nanoTime();
    HttpResponse<byte[]> res;
    try {
      res = client.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (HttpTimeoutException e) {
      throw new ApiException(504, "hop " + nextHop + " (" + baseUrl + ") did not answer within 30 s");
    } catch (IOException e) {
      throw new ApiException(502, "hop " + nextHop + " (" + baseUrl + "): " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException(502, "hop " + nextHop + " (" + baseUrl + "): interrupted");
    }
    double waited = (System.nanoTime() - began) / 1e6;
    List<String> timing = new ArrayList<>();
    timing.add(String.format(Locale.ROOT, "hop%d;dur=%.3f", nextHop, waited));
    for (String part : res.headers().firstValue("server-timing").orElse("").split(",")) {
      Matcher m = ENTRY.matcher(part.trim());
      if (!m.matches()) continue;
      if ("db".equals(m.group(1))) dbNanos[0] += (long) (Double.parseDouble(m.group(2)) * 1e6);
      else if (m.group(1).matches("hop\\d+")) timing.add(part.trim());
    }
    Reply reply =
        new Reply(
            res.statusCode(),
            res.headers().firstValue("content-type").orElse("application/octet-stream"),
            res.body());
    for (String name : FORWARDED_RESPONSE) {
      res.headers().firstValue(name).ifPresent(v -> reply.header(name, v));
    }
    reply.timing = String.join(", ", timing);
    return reply;
  }
}
