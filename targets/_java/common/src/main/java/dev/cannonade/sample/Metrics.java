package dev.cannonade.sample;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * GET /metrics in Prometheus text format (version 0.0.4): requests by method, route and status, a
 * latency histogram per route, and the JVM's own figures under the names Prometheus' client_java
 * gives them (jvm_memory_used_bytes{area}, jvm_threads_current, jvm_gc_collection_seconds,
 * process_cpu_seconds_total, process_resident_memory_bytes), so Cannonade's `jvm` Prometheus preset
 * reads this server as it reads any JVM service. Same families, labels and buckets as
 * targets/_node/metrics.ts: keep the two in step. No dependency: the format is a few lines of text.
 */
public final class Metrics {
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  /** Upper bounds of the latency histogram, seconds (+Inf is implied). */
  static final double[] BUCKETS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  // A fixed set of label values: a scanner's random paths cannot grow the series without bound.
  private static final Set<String> ROUTES =
      Set.of("/health", "/ads", "/compute", "/payload", "/users", "/login", "/me", "/metrics");
  private static final Set<String> METHODS =
      Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");

  private static final class Histogram {
    final LongAdder[] buckets = new LongAdder[BUCKETS.length];
    final LongAdder count = new LongAdder();
    final DoubleAdder sum = new DoubleAdder();

    Histogram() {
      for (int i = 0; i < buckets.length; i++) buckets[i] = new LongAdder();
    }
  }

  private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
  private final Map<String, Histogram> durations = new ConcurrentHashMap<>();

  /** The route label of a request path: the API's routes, {@code /ads/:id}, else {@code other}. */
  public static String routeOf(String path) {
    if (ROUTES.contains(path)) return path;
    return path.startsWith("/ads/") ? "/ads/:id" : "other";
  }

  /** One answered request (the /metrics route itself is not counted: scrapes would inflate it). */
  public void record(String method, String path, int status, double seconds) {
    String route = routeOf(path);
    if (route.equals("/metrics")) return;
    String m = METHODS.contains(method) ? method : "other";
    requests.computeIfAbsent(m + " " + route + " " + status, k -> new LongAdder()).increment();
    Histogram h = durations.computeIfAbsent(route, k -> new Histogram());
    for (int i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]) h.buckets[i].increment();
    h.count.increment();
    h.sum.add(seconds);
  }

  private static String num(double x) {
    if (x == Math.rint(x) && Math.abs(x) < 1e15) return Long.toString((long) x);
    return Double.toString(x);
  }

  private static void family(StringBuilder out, String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void one(StringBuilder out, String name, String type, String help, double value) {
    family(out, name, type, help);
    out.append(name).append(' ').append(num(value)).append('\n');
  }

  /** The text of /metrics now. */
  public byte[] render() {
    StringBuilder out = new StringBuilder(4096);
    family(
        out,
        "http_requests_total",
        "counter",
        "Requests answered, by method, route and status (scrapes of /metrics not counted).");
    for (Map.Entry<String, LongAdder> e : new TreeMap<>(requests).entrySet()) {
      String[] k = e.getKey().split(" ");
      out.append("http_requests_total{method=\"").append(k[0]).append("\",route=\"").append(k[1])
          .append("\",status=\"").append(k[2]).append("\"} ").append(e.getValue().sum()).append('\n');
    }
    family(
        out,
        "http_request_duration_seconds",
        "histogram",
        "Time from a request arriving to its answer, by route.");
    for (Map.Entry<String, Histogram> e : new TreeMap<>(durations).entrySet()) {
      String route = e.getKey();
      Histogram h = e.getValue();
      // Read the count first: buckets incremented after it may only exceed it, never fall short.
      long count = h.count.sum();
      for (int i = 0; i < BUCKETS.length; i++) {
        out.append("http_request_duration_seconds_bucket{route=\"").append(route)
            .append("\",le=\"").append(num(BUCKETS[i])).append("\"} ")
            .append(Math.min(count, h.buckets[i].sum())).append('\n');
      }
      out.append("http_request_duration_seconds_bucket{route=\"").append(route)
          .append("\",le=\"+Inf\"} ").append(count).append('\n');
      out.append("http_request_duration_seconds_sum{route=\"").append(route).append("\"} ")
          .append(num(h.sum.sum())).append('\n');
      out.append("http_request_duration_seconds_count{route=\"").append(route).append("\"} ")
          .append(count).append('\n');
    }
    runtime(out);
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void runtime(StringBuilder out) {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      one(out, "process_cpu_seconds_total", "counter", "User and system CPU time spent, seconds.",
          os.getProcessCpuTime() / 1e9);
    }
    one(out, "process_resident_memory_bytes", "gauge", "Resident memory size, bytes.", residentBytes());
    one(out, "process_start_time_seconds", "gauge",
        "Start time of the process since the Unix epoch, seconds.",
        ManagementFactory.getRuntimeMXBean().getStartTime() / 1000.0);
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    MemoryUsage nonHeap = ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage();
    family(out, "jvm_memory_used_bytes", "gauge", "Used bytes of a given JVM memory area.");
    out.append("jvm_memory_used_bytes{area=\"heap\"} ").append(heap.getUsed()).append('\n');
    out.append("jvm_memory_used_bytes{area=\"nonheap\"} ").append(nonHeap.getUsed()).append('\n');
    family(out, "jvm_memory_committed_bytes", "gauge", "Committed bytes of a given JVM memory area.");
    out.append("jvm_memory_committed_bytes{area=\"heap\"} ").append(heap.getCommitted()).append('\n');
    out.append("jvm_memory_committed_bytes{area=\"nonheap\"} ").append(nonHeap.getCommitted()).append('\n');
    family(out, "jvm_memory_max_bytes", "gauge", "Max bytes of a given JVM memory area (-1: none).");
    out.append("jvm_memory_max_bytes{area=\"heap\"} ").append(heap.getMax()).append('\n');
    out.append("jvm_memory_max_bytes{area=\"nonheap\"} ").append(nonHeap.getMax()).append('\n');
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    one(out, "jvm_threads_current", "gauge", "Current thread count of the JVM.", threads.getThreadCount());
    one(out, "jvm_threads_daemon", "gauge", "Daemon thread count of the JVM.", threads.getDaemonThreadCount());
    one(out, "jvm_threads_peak", "gauge", "Peak thread count of the JVM.", threads.getPeakThreadCount());
    family(out, "jvm_gc_collection_seconds", "summary",
        "Time spent in a given JVM garbage collector, seconds.");
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      String name = gc.getName().replace("\\", "\\\\").replace("\"", "\\\"");
      out.append("jvm_gc_collection_seconds_count{gc=\"").append(name).append("\"} ")
          .append(Math.max(0, gc.getCollectionCount())).append('\n');
      out.append("jvm_gc_collection_seconds_sum{gc=\"").append(name).append("\"} ")
          .append(num(Math.max(0, gc.getCollectionTime()) / 1000.0)).append('\n');
    }
  }

  /** VmRSS from /proc/self/status (Linux), else 0. */
  private static long residentBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux: no figure
    }
    return 0;
  }
}
