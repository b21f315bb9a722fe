package org.privadapt.privacy.noise;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.DrbgParameters;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The default generator: the keystream of AES-256 in counter mode ({@code AES/CTR/NoPadding}, AES-NI accelerated
 * by the JDK where the CPU has it), keyed from {@link SecureRandom}. The 64-bit outputs are the keystream read as
 * little-endian longs; under the standard assumption that AES-256 is a pseudorandom permutation they are
 * computationally indistinguishable from uniform bits.
 *
 * <p>Construction, in the spirit of NIST SP 800-90A's CTR_DRBG (not a validated implementation of it):
 * <ul>
 *   <li>Output is produced in <em>requests</em> of {@value #REQUEST_BYTES} bytes (2^19 bits, CTR_DRBG's maximum
 *       per request). Each request encrypts {@value #REQUEST_BYTES} + 48 zero bytes under the current key and
 *       counter; the last 48 bytes are never output and become the next request's key (32 bytes) and initial
 *       counter (16 bytes), after which the previous key is overwritten. This is CTR_DRBG's update step: reading
 *       the state after a request does not reveal earlier requests' output (backtracking resistance).</li>
 *   <li>Every {@value #REQUESTS_PER_SEED} requests (64 MiB of output) the key and counter are instead drawn afresh
 *       from the process-wide {@link SecureRandom} ({@code DRBG}: SP 800-90A Hash_DRBG, SHA-256, 256-bit
 *       strength, seeded by the operating system), far inside CTR_DRBG's reseed interval of 2^48 requests, so a
 *       compromised state stops predicting output after at most 64 MiB. A single key produces 4,099 blocks, so
 *       the PRP/PRF switching term (q^2 / 2^129) is below 2^-104 per key.</li>
 * </ul>
 *
 * <p>Not thread-safe (see {@link RandomBits}); {@link #split()} returns a new instance keyed from
 * {@link SecureRandom}, statistically independent of this one.
 */
public final class SecureRandomBits implements RandomBits {
    /** Bytes of output per request (2^19 bits, NIST SP 800-90A CTR_DRBG's max_number_of_bits_per_request). */
    public static final int REQUEST_BYTES = 1 << 16;
    /** Requests between two keys drawn from {@link SecureRandom} (64 MiB of output). */
    public static final int REQUESTS_PER_SEED = 1 << 10;

    private static final int KEY_BYTES = 32;
    private static final int COUNTER_BYTES = 16;
    private static final int STATE_BYTES = KEY_BYTES + COUNTER_BYTES;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final SecureRandom seeder;
    private final int requestBytes;
    private final int requestsPerSeed;
    private final Cipher cipher;
    private final byte[] zeros;
    private final byte[] stream;
    private final byte[] state = new byte[STATE_BYTES];
    private int position;
    private int requestsLeft;

    /** A generator keyed from the process-wide {@code DRBG} {@link SecureRandom}. */
    public SecureRandomBits() {
        this(Seeder.INSTANCE, REQUEST_BYTES, REQUESTS_PER_SEED);
        CipherWarmUp.start();
    }

    /** For tests: a given seeder (which supplies key and counter) and request sizes. */
    SecureRandomBits(SecureRandom seeder, int requestBytes, int requestsPerSeed) {
        if (requestBytes <= 0 || requestBytes % Long.BYTES != 0) {
            throw new IllegalArgumentException("request size must be a positive multiple of 8, got " + requestBytes);
        }
        if (requestsPerSeed <= 0) {
            throw new IllegalArgumentException("requests per seed must be > 0, got " + requestsPerSeed);
        }
        this.seeder = seeder;
        this.requestBytes = requestBytes;
        this.requestsPerSeed = requestsPerSeed;
        try {
            this.cipher = Cipher.getInstance("AES/CTR/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CTR/NoPadding is not available in this JDK", e);
        }
        this.zeros = new byte[requestBytes + STATE_BYTES];
        this.stream = new byte[requestBytes + STATE_BYTES];
        this.position = requestBytes; // empty: the first draw fills
        this.requestsLeft = 0; // the first request is keyed from the seeder
    }

    @Override
    public long nextLong() {
        if (position == requestBytes) {
            refill();
        }
        long value = (long) LONGS.get(stream, position);
        position += Long.BYTES;
        return value;
    }

    /** The same words as {@code len} calls of {@link #nextLong()}, copied from the keystream in bulk. */
    @Override
    public void nextLongs(long[] dst, int off, int len) {
        Objects.checkFromIndexSize(off, len, dst.length);
        int at = off;
        int end = off + len;
        while (at < end) {
            if (position == requestBytes) {
                refill();
            }
            int words = Math.min(end - at, (requestBytes - position) / Long.BYTES);
            int from = position;
            for (int i = 0; i < words; i++) {
                dst[at + i] = (long) LONGS.get(stream, from + i * Long.BYTES);
            }
            at += words;
            position += words * Long.BYTES;
        }
    }

    /*
     * Reading the keystream in place (the vector sampler, issue 32): the words from byte offset bytePosition() up to
     * byteLimit() of keystream() are the next ones nextLong() would return, in order. A reader takes them with
     * wordAt, then marks them used with consumeTo; nothing is copied, and no word is returned twice.
     */

    /** The keystream buffer (read only between {@link #bytePosition()} and {@link #byteLimit()}). */
    byte[] keystream() {
        return stream;
    }

    /** The byte offset in {@link #keystream()} of the next unused word. */
    int bytePosition() {
        return position;
    }

    /** The byte offset in {@link #keystream()} where the current request's words end. */
    int byteLimit() {
        return requestBytes;
    }

    /** Marks the words before byte offset {@code p} used; {@code p} lies on a word between the position and the limit. */
    void consumeTo(int p) {
        if (p < position || p > requestBytes || (p & (Long.BYTES - 1)) != 0) {
            throw new IllegalArgumentException("cannot consume to byte " + p + " from " + position + " of " + requestBytes);
        }
        position = p;
    }

    /** Starts the next request when every word of this one is used, so that at least one word is unused. */
    void ensureWords() {
        if (position == requestBytes) {
            refill();
        }
    }

    /** The word at byte offset {@code p} of {@code keystream}, as {@link #nextLong()} reads it. */
    static long wordAt(byte[] keystream, int p) {
        return (long) LONGS.get(keystream, p);
    }

    private void refill() {
        if (requestsLeft == 0) {
            seeder.nextBytes(state);
            requestsLeft = requestsPerSeed;
        } else {
            System.arraycopy(stream, requestBytes, state, 0, STATE_BYTES);
        }
        requestsLeft--;
        try {
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(state, 0, KEY_BYTES, "AES"),
                    new IvParameterSpec(state, KEY_BYTES, COUNTER_BYTES));
            int produced = cipher.update(zeros, 0, zeros.length, stream, 0);
            if (produced != zeros.length) {
                throw new IllegalStateException("AES-CTR produced " + produced + " bytes, expected " + zeros.length);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR keystream generation failed", e);
        } finally {
            Arrays.fill(state, (byte) 0);
        }
        position = 0;
    }

    @Override
    public boolean isSecure() {
        return true;
    }

    @Override
    public String name() {
        return "AES-256-CTR keyed from SecureRandom(" + seeder.getAlgorithm() + ")";
    }

    /** A new generator with its own key and counter drawn from the same {@link SecureRandom}. */
    @Override
    public SecureRandomBits split() {
        return new SecureRandomBits(seeder, requestBytes, requestsPerSeed);
    }

    /**
     * The JDK compiles its AES-CTR intrinsic into the cipher's call path only once that path has been called some
     * thousands of times; at 64 KiB a request that takes the first second or more of a run, during which the keystream
     * comes from the JDK's byte-at-a-time Java loop at about 0.3 GB/s instead of several GB/s (issue 32: measured on
     * 2026-11-27, 1.25 s at 0.3 GB/s before the first fast request). So the first generator of a process starts a
     * daemon thread that makes 30,000 small requests of a cipher of its own, under an all-zero key whose output is
     * thrown away (about 0.2 s of the other core): the call path is then compiled before the real streams need it.
     * Nothing it computes reaches any output.
     */
    static final class CipherWarmUp {
        static final int REQUESTS = 30_000;
        private static final java.util.concurrent.atomic.AtomicBoolean STARTED = new java.util.concurrent.atomic.AtomicBoolean();
        private static final java.util.concurrent.atomic.AtomicInteger THREADS = new java.util.concurrent.atomic.AtomicInteger();
        private static volatile boolean done;

        private CipherWarmUp() {
        }

        static void start() {
            if (STARTED.compareAndSet(false, true)) {
                THREADS.incrementAndGet();
                Thread t = new Thread(CipherWarmUp::run, "privadapt-aes-warm-up");
                t.setDaemon(true);
                t.setPriority(Thread.MIN_PRIORITY);
                t.start();
            }
        }

        /** How many warm-up threads this process has started (for tests: one at most). */
        static int threads() {
            return THREADS.get();
        }

        /** Whether the warm-up has run to its end (for tests). */
        static boolean done() {
            return done;
        }

        private static void run() {
            try {
                Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
                c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[KEY_BYTES], "AES"),
                        new IvParameterSpec(new byte[COUNTER_BYTES]));
                byte[] in = new byte[64];
                byte[] out = new byte[64];
                for (int i = 0; i < REQUESTS; i++) {
                    c.update(in, 0, in.length, out, 0);
                }
            } catch (GeneralSecurityException e) {
                // no warm-up: the real streams are unaffected, only slower at first
            } finally {
                done = true;
            }
        }
    }

    private static final class Seeder {
        static final SecureRandom INSTANCE = create();

        private static SecureRandom create() {
            try {
                return SecureRandom.getInstance("DRBG",
                        DrbgParameters.instantiation(256, DrbgParameters.Capability.RESEED_ONLY, null));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("the JDK's DRBG SecureRandom (256-bit strength) is not available", e);
            }
        }
    }
}
