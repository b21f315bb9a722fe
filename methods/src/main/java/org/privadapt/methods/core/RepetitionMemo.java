package org.privadapt.methods.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Remembers the last few values of a deterministic, expensive function of a task's data, so that the repetitions of
 * a benchmark cell (which differ only in their seed) compute it once. Used for non-private transforms only: CORAL's
 * aligned source at d = 5000 takes two 5000 x 5000 eigendecompositions, and with the network every repetition
 * needs it again although only the classifier's initialisation changes.
 *
 * <p>A key is the data objects the value was computed from, compared by identity (a dataset is immutable; another
 * object, even with equal contents, is another key), and the parameters, compared by equality. Repetitions run at
 * once wait for one computation. A computation that fails is not remembered. Callers must not modify a value they
 * get (copy it first).
 *
 * <p>Never use it for anything private: a DP release must draw fresh noise every time.
 */
public final class RepetitionMemo<V> {
    /** A computation that may throw (its checked exception reaches the caller unchanged). */
    @FunctionalInterface
    public interface Computation<V, E extends Exception> {
        V compute() throws E;
    }

    private record Key(List<Object> data, List<Object> params) {
        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key k) || k.data.size() != data.size() || !k.params.equals(params)) {
                return false;
            }
            for (int i = 0; i < data.size(); i++) {
                if (k.data.get(i) != data.get(i)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode() {
            int h = params.hashCode();
            for (Object d : data) {
                h = 31 * h + System.identityHashCode(d);
            }
            return h;
        }
    }

    private final Map<Key, CompletableFuture<V>> entries;

    /** Keeps at most {@code capacity} values (the least recently used goes first). */
    public RepetitionMemo(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, CompletableFuture<V>> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The value for these data objects and parameters: remembered, or computed now (once, however many ask). */
    @SuppressWarnings("unchecked")
    public <E extends Exception> V get(List<Object> data, List<Object> params, Computation<V, E> computation) throws E {
        Key key = new Key(List.copyOf(data), List.copyOf(params));
        CompletableFuture<V> mine = new CompletableFuture<>();
        CompletableFuture<V> f;
        synchronized (entries) {
            f = entries.get(key);
            if (f == null) {
                entries.put(key, mine);
                f = mine;
            }
        }
        if (f == mine) {
            try {
                mine.complete(computation.compute());
            } catch (Exception | Error e) {
                synchronized (entries) {
                    entries.remove(key, mine);
                }
                mine.completeExceptionally(e);
                throw e;
            }
        }
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a shared computation", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error er) {
                throw er;
            }
            throw (E) c;
        }
    }

    /** Number of values remembered (or being computed). */
    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }
}
