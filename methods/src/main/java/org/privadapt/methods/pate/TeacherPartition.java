package org.privadapt.methods.pate;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import org.privadapt.data.ClassLabels;
import org.privadapt.math.FeatureMatrix;

/**
 * How PATE splits the source's records among its teachers: each record goes to the teacher given by a keyed hash of
 * <b>the record itself</b> (its label and its feature values, as the method sees them after row-local
 * preprocessing), never by its position in the list.
 *
 * <p>{@code teacher(r) = first 64 bits of SHA-256("privadapt-pate-partition-v1", key, label(r), features(r))}, as an
 * unsigned number, modulo the number of teachers. A record's teacher is a function of that record and the public
 * key only, so:
 * <ul>
 *   <li>adding or removing one record changes exactly one partition (the one that record hashes to) and leaves
 *       every other record where it was; contiguous slices of the list would not have this property, since removing
 *       a record moves every slice boundary after it;</li>
 *   <li>replacing one record by another can change two partitions (the old record's and the new one's), which is
 *       why {@link GnMax#sensitivity} is 2 under replace-one and sqrt(2) under add/remove;</li>
 *   <li>exact duplicates (same label, same bits) share a teacher, which is harmless: each one still changes only
 *       that teacher's partition.</li>
 * </ul>
 * SHA-256 makes the assignment of distinct records behave as independent uniform draws (a bias of at most
 * {@code teachers / 2^64} from the modulo); the partitions' sizes are therefore multinomial, not equal. The key is
 * the run's public {@code MethodConfig.seed()}: it plays no role in the privacy argument (which holds for every
 * fixed assignment with the one-partition property) and only varies the partition between repetitions.
 */
public final class TeacherPartition {
    private static final byte[] DOMAIN = "privadapt-pate-partition-v1".getBytes(StandardCharsets.UTF_8);

    private TeacherPartition() {
    }

    /** The teacher (in [0, teachers)) of one record. */
    public static int teacherOf(double[] features, String label, int teachers, long key) {
        if (teachers < 1) {
            throw new IllegalArgumentException("teachers must be >= 1, got " + teachers);
        }
        MessageDigest sha = sha256();
        sha.update(DOMAIN);
        sha.update(longBytes(key));
        byte[] l = label.getBytes(StandardCharsets.UTF_8);
        sha.update(longBytes(l.length));
        sha.update(l);
        sha.update(longBytes(features.length));
        byte[] buf = new byte[8 * features.length];
        for (int j = 0; j < features.length; j++) {
            double v = features[j];
            long bits = v == 0.0 ? 0L : Double.doubleToLongBits(v); // +0.0 and -0.0 are the same value
            for (int b = 0; b < 8; b++) {
                buf[8 * j + b] = (byte) (bits >>> (56 - 8 * b));
            }
        }
        sha.update(buf);
        byte[] h = sha.digest();
        long u = 0;
        for (int b = 0; b < 8; b++) {
            u = (u << 8) | (h[b] & 0xffL);
        }
        return (int) Long.remainderUnsigned(u, teachers);
    }

    /** The teacher of every row of {@code x} (labelled by {@code y}). */
    public static int[] assign(FeatureMatrix x, ClassLabels y, int teachers, long key) {
        if (x.rows() != y.size()) {
            throw new IllegalArgumentException(x.rows() + " rows but " + y.size() + " labels");
        }
        List<String> names = y.names();
        int[] out = new int[x.rows()];
        for (int i = 0; i < out.length; i++) {
            out[i] = teacherOf(x.row(i), names.get(y.code(i)), teachers, key);
        }
        return out;
    }

    /** The row indices of each teacher's partition, in increasing order (possibly empty). */
    public static int[][] members(int[] assignment, int teachers) {
        int[] counts = new int[teachers];
        for (int t : assignment) {
            counts[t]++;
        }
        int[][] out = new int[teachers][];
        for (int t = 0; t < teachers; t++) {
            out[t] = new int[counts[t]];
        }
        int[] fill = new int[teachers];
        for (int i = 0; i < assignment.length; i++) {
            int t = assignment[i];
            out[t][fill[t]++] = i;
        }
        return out;
    }

    private static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (56 - 8 * i));
        }
        return b;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
