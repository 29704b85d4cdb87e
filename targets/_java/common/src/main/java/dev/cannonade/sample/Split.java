package dev.cannonade.sample;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Task splitting, the Java side of /compute?split=K: the same parts and join as the
 * Node stacks (targets/_node/compute.ts). SPLIT_THREADS lanes, each a single-thread executor,
 * take the parts in turn (part i of a request on lane next+i), as node-cluster's primary hands
 * parts to its workers; the request's thread waits for all of them and joins.
 */
public final class Split {
  private static final String SALT = new String(Api.COMPUTE_SALT, StandardCharsets.UTF_8);
  private final ExecutorService[] lanes;
  private final AtomicInteger next = new AtomicInteger();

  public Split(int threads) {
    lanes = new ExecutorService[threads];
    for (int i = 0; i < threads; i++) {
      String name = "split-" + (i + 1);
      lanes[i] =
          Executors.newSingleThreadExecutor(
              r -> {
                Thread th = new Thread(r, name);
                th.setDaemon(true);
                return th;
              });
    }
  }

  /** Iterations of each part: N/K, the first N mod K parts one more. */
  public static int[] parts(int iterations, int split) {
    int[] out = new int[split];
    for (int i = 0; i < split; i++) out[i] = iterations / split + (i < iterations % split ? 1 : 0);
    return out;
  }

  public record Result(String hash, List<String> workers) {}

  public Result run(int iterations, int split) {
    int[] parts = parts(iterations, split);
    int first = Math.floorMod(next.getAndAdd(split), lanes.length);
    List<CompletableFuture<String[]>> futures = new ArrayList<>(split);
    for (int i = 0; i < split; i++) {
      final int index = i;
      futures.add(
          CompletableFuture.supplyAsync(
              () -> {
                byte[] salt = (SALT + ":" + index).getBytes(StandardCharsets.UTF_8);
                byte[] hash = Passwords.pbkdf2(Api.COMPUTE_PASSWORD, salt, parts[index], 32);
                return new String[] {Passwords.hex(hash), Thread.currentThread().getName()};
              },
              lanes[(first + i) % lanes.length]));
    }
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      List<String> workers = new ArrayList<>(split);
      for (CompletableFuture<String[]> f : futures) {
        String[] r = f.get();
        sha.update(HexFormat.of().parseHex(r[0]));
        workers.add(r[1]);
      }
      return new Result(Passwords.hex(sha.digest()), workers);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while joining the parts", e);
    } catch (ExecutionException | NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
