package org.privadapt.privacy.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SecureRandomBitsTest {
    /** NIST SP 800-38A, F.5.5 CTR-AES256.Encrypt: key and initial counter block. */
    private static final byte[] NIST_KEY_AND_COUNTER = HexFormat.of().parseHex(
            "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4" + "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");

    /** A SecureRandom that hands out queued byte strings (key || counter) and counts the calls. */
    private static final class ScriptedSeeder extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final transient Deque<byte[]> script = new ArrayDeque<>();
        int calls;

        ScriptedSeeder(byte[]... seeds) {
            for (byte[] s : seeds) {
                script.add(s);
            }
        }

        @Override
        public void nextBytes(byte[] bytes) {
            calls++;
            byte[] next = script.isEmpty() ? new byte[bytes.length] : script.poll();
            System.arraycopy(next, 0, bytes, 0, bytes.length);
        }

        @Override
        public String getAlgorithm() {
            return "scripted";
        }
    }

    private static byte[] keystream(byte[] keyAndCounter, int length) throws Exception {
        Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(keyAndCounter, 0, 32, "AES"),
                new IvParameterSpec(keyAndCounter, 32, 16));
        return c.doFinal(new byte[length]);
    }

    @Test
    void outputIsTheNistAes256CtrKeystream() {
        // keystream = plaintext XOR ciphertext of the SP 800-38A vector:
        // 0bdf7df1591716335e9a8b15c860c502 5a6e699d536119065433863c8f657b94, read as little-endian longs
        SecureRandomBits bits = new SecureRandomBits(new ScriptedSeeder(NIST_KEY_AND_COUNTER), 1 << 16, 4);
        assertThat(bits.nextLong()).isEqualTo(0x33161759f17ddf0bL);
        assertThat(bits.nextLong()).isEqualTo(0x02c560c8158b9a5eL);
        assertThat(bits.nextLong()).isEqualTo(0x061961539d696e5aL);
        assertThat(bits.nextLong()).isEqualTo(0x947b658f3c863354L);
    }

    @Test
    void eachRequestIsKeyedFromThePreviousOneAndReseedsOnSchedule() throws Exception {
        int request = 64;
        byte[] seed2 = HexFormat.of().parseHex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
                + "0f0e0d0c0b0a09080706050403020100");
        ScriptedSeeder seeder = new ScriptedSeeder(NIST_KEY_AND_COUNTER, seed2);
        SecureRandomBits bits = new SecureRandomBits(seeder, request, 3);

        byte[] first = keystream(NIST_KEY_AND_COUNTER, request + 48);
        byte[] second = keystream(Arrays.copyOfRange(first, request, request + 48), request + 48);
        byte[] third = keystream(Arrays.copyOfRange(second, request, request + 48), request + 48);
        byte[] fourth = keystream(seed2, request + 48);
        for (byte[] expected : new byte[][] {first, second, third, fourth}) {
            ByteBuffer buffer = ByteBuffer.wrap(expected).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < request / 8; i++) {
                assertThat(bits.nextLong()).isEqualTo(buffer.getLong());
            }
        }
        assertThat(seeder.calls).isEqualTo(2); // requests 1 and 4 drew from the seeder
        for (int i = 0; i < 3 * request / 8; i++) {
            bits.nextLong();
        }
        assertThat(seeder.calls).isEqualTo(3);
    }

    @Test
    void instancesAndSplitsAreIndependentAndSecure() {
        SecureRandomBits a = new SecureRandomBits();
        SecureRandomBits b = new SecureRandomBits();
        RandomBits c = a.split();
        long[] x = {a.nextLong(), a.nextLong()};
        long[] y = {b.nextLong(), b.nextLong()};
        long[] z = {c.nextLong(), c.nextLong()};
        assertThat(x).isNotEqualTo(y).isNotEqualTo(z);
        assertThat(a.isSecure()).isTrue();
        assertThat(c.isSecure()).isTrue();
        assertThat(a.name()).isEqualTo("AES-256-CTR keyed from SecureRandom(DRBG)");
    }

    @Test
    void bitsAreBalancedAcrossRequestBoundaries() {
        // 3 requests' worth of output from a fixed key: each bit position is 1 with probability 1/2 (5 standard
        // errors)
        SecureRandomBits bits = new SecureRandomBits(new ScriptedSeeder(NIST_KEY_AND_COUNTER),
                SecureRandomBits.REQUEST_BYTES, SecureRandomBits.REQUESTS_PER_SEED);
        int n = 3 * SecureRandomBits.REQUEST_BYTES / 8;
        long[] ones = new long[64];
        for (int i = 0; i < n; i++) {
            long v = bits.nextLong();
            for (int b = 0; b < 64; b++) {
                ones[b] += (v >>> b) & 1;
            }
        }
        double se = Math.sqrt(0.25 / n);
        for (int b = 0; b < 64; b++) {
            assertThat((double) ones[b] / n).as("bit %d", b).isBetween(0.5 - 5 * se, 0.5 + 5 * se);
        }
    }

    @Test
    void bulkReadsAreTheWordsOfSingleReads() throws Exception {
        // 64-byte requests and a new key every 3 requests: bulk reads cross both boundaries
        byte[] second = keystream(NIST_KEY_AND_COUNTER, 48);
        SecureRandomBits single = new SecureRandomBits(new ScriptedSeeder(NIST_KEY_AND_COUNTER, second), 64, 3);
        SecureRandomBits bulk = new SecureRandomBits(new ScriptedSeeder(NIST_KEY_AND_COUNTER, second), 64, 3);
        int[] lengths = {1, 0, 7, 8, 9, 3, 24, 2, 41};
        for (int len : lengths) {
            long[] words = new long[len + 2];
            bulk.nextLongs(words, 1, len);
            for (int i = 0; i < len; i++) {
                assertThat(words[1 + i]).as("read of %d, word %d", len, i).isEqualTo(single.nextLong());
            }
            assertThat(words[0]).isZero();
            assertThat(words[len + 1]).isZero();
            assertThat(bulk.nextLong()).isEqualTo(single.nextLong());
        }
        assertThatThrownBy(() -> bulk.nextLongs(new long[4], 2, 3)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void theFirstGeneratorWarmsTheCipherUpOnADaemonThreadOnce() throws InterruptedException {
        new SecureRandomBits();
        new SecureRandomBits();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!SecureRandomBits.CipherWarmUp.done() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(SecureRandomBits.CipherWarmUp.done()).isTrue();
        assertThat(SecureRandomBits.CipherWarmUp.threads()).isEqualTo(1); // once per process, however many generators
    }
}
