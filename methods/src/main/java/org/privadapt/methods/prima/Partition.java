package org.privadapt.methods.prima;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A partition of the d features into disjoint blocks (the random subspaces of PRIMA), each block sorted. Immutable.
 */
public final class Partition {
    private final int dimension;
    private final List<int[]> blocks;

    /**
     * @throws IllegalArgumentException if the blocks are empty, overlap, or do not cover 0..d-1 exactly
     */
    public Partition(int dimension, List<int[]> blocks) {
        boolean[] seen = new boolean[dimension];
        List<int[]> copy = new ArrayList<>();
        for (int[] b : blocks) {
            if (b.length == 0) {
                throw new IllegalArgumentException("empty block in partition");
            }
            int[] s = b.clone();
            Arrays.sort(s);
            for (int j : s) {
                if (j < 0 || j >= dimension) {
                    throw new IllegalArgumentException("feature " + j + " outside [0, " + dimension + ")");
                }
                if (seen[j]) {
                    throw new IllegalArgumentException("feature " + j + " is in two blocks");
                }
                seen[j] = true;
            }
            copy.add(s);
        }
        for (int j = 0; j < dimension; j++) {
            if (!seen[j]) {
                throw new IllegalArgumentException("feature " + j + " is in no block");
            }
        }
        this.dimension = dimension;
        this.blocks = List.copyOf(copy);
    }

    /** All features in one block. */
    public static Partition single(int d) {
        int[] all = new int[d];
        for (int j = 0; j < d; j++) {
            all[j] = j;
        }
        return new Partition(d, List.of(all));
    }

    /** A uniformly random partition into blocks of {@code size} features (the last may be smaller); data-independent. */
    public static Partition random(int d, int size, long seed) {
        if (size < 1) {
            throw new IllegalArgumentException("block size must be >= 1, got " + size);
        }
        int[] perm = shuffledFeatures(d, seed);
        List<int[]> blocks = new ArrayList<>();
        for (int from = 0; from < d; from += size) {
            blocks.add(Arrays.copyOfRange(perm, from, Math.min(d, from + size)));
        }
        return new Partition(d, blocks);
    }

    /** The features 0..d-1 in a uniformly random order (Fisher-Yates from {@code seed}); data-independent. */
    static int[] shuffledFeatures(int d, long seed) {
        int[] perm = new int[d];
        for (int j = 0; j < d; j++) {
            perm[j] = j;
        }
        SplittableRandom rng = new SplittableRandom(seed);
        for (int j = d - 1; j > 0; j--) {
            int k = rng.nextInt(j + 1);
            int t = perm[j];
            perm[j] = perm[k];
            perm[k] = t;
        }
        return perm;
    }

    public int dimension() {
        return dimension;
    }

    public int size() {
        return blocks.size();
    }

    /** Block i (a copy). */
    public int[] block(int i) {
        return blocks.get(i).clone();
    }

    public List<int[]> blocks() {
        List<int[]> out = new ArrayList<>();
        for (int[] b : blocks) {
            out.add(b.clone());
        }
        return out;
    }

    /** Sum over blocks of p_i (p_i + 1) / 2: the number of released upper-triangle entries. */
    public long upperTriangleEntries() {
        long k = 0;
        for (int[] b : blocks) {
            k += (long) b.length * (b.length + 1) / 2;
        }
        return k;
    }

    public int largestBlock() {
        int m = 0;
        for (int[] b : blocks) {
            m = Math.max(m, b.length);
        }
        return m;
    }

    @Override
    public String toString() {
        return "Partition(" + blocks.size() + " blocks over " + dimension + " features, largest " + largestBlock() + ")";
    }
}
