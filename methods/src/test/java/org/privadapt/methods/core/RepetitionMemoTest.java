package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RepetitionMemoTest {
    @Test
    void computesOncePerDataObjectAndParametersAndComparesDataByIdentity() {
        RepetitionMemo<String> memo = new RepetitionMemo<>(2);
        AtomicInteger calls = new AtomicInteger();
        int[] a = {1, 2};
        int[] equalToA = {1, 2};
        assertThat(memo.get(List.of(a), List.of(1.0), () -> "v" + calls.incrementAndGet())).isEqualTo("v1");
        assertThat(memo.get(List.of(a), List.of(1.0), () -> "v" + calls.incrementAndGet())).isEqualTo("v1");
        assertThat(memo.get(List.of(a), List.of(2.0), () -> "v" + calls.incrementAndGet())).isEqualTo("v2");
        assertThat(memo.get(List.of(equalToA), List.of(1.0), () -> "v" + calls.incrementAndGet())).isEqualTo("v3");
        assertThat(memo.size()).isEqualTo(2); // capacity: (a, 1.0) was the least recently used and went
        assertThat(memo.get(List.of(a), List.of(1.0), () -> "v" + calls.incrementAndGet())).isEqualTo("v4");
        assertThat(calls.get()).isEqualTo(4);
    }

    @Test
    void aFailureReachesTheCallerAndIsNotRemembered() throws IOException {
        RepetitionMemo<String> memo = new RepetitionMemo<>(2);
        Object d = new Object();
        assertThatThrownBy(() -> memo.get(List.of(d), List.of(), () -> {
            throw new IOException("disk");
        })).isInstanceOf(IOException.class).hasMessage("disk");
        assertThat(memo.size()).isZero();
        assertThat(memo.get(List.of(d), List.of(), () -> "ok")).isEqualTo("ok");
    }

    @Test
    void concurrentRepetitionsWaitForOneComputation() throws Exception {
        RepetitionMemo<Integer> memo = new RepetitionMemo<>(2);
        Object d = new Object();
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Future<Integer> first = pool.submit(() -> memo.get(List.of(d), List.of(), () -> {
                started.countDown();
                release.await();
                return calls.incrementAndGet();
            }));
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            List<Future<Integer>> others = List.of(
                    pool.submit(() -> memo.get(List.of(d), List.of(), calls::incrementAndGet)),
                    pool.submit(() -> memo.get(List.of(d), List.of(), calls::incrementAndGet)));
            release.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            for (Future<Integer> f : others) {
                assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            }
            assertThat(calls.get()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }
}
