package bench;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a server answered, counted from its own side: requests, and the connections that carried
 * them (a connection is its client's address and port). GET /__count reads it as JSON and
 * GET /__zero starts over; neither is counted.
 */
public final class Count {
  private final AtomicLong requests = new AtomicLong();
  private final Set<String> connections = ConcurrentHashMap.newKeySet();

  public void request(String remote) {
    requests.incrementAndGet();
    connections.add(remote);
  }

  public String json() {
    return "{\"requests\":" + requests.get() + ",\"connections\":" + connections.size() + "}";
  }

  public void zero() {
    requests.set(0);
    connections.clear();
  }
}
