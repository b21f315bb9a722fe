package org.privadapt.methods.pate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.methods.neighbours.ReleaseComparison;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * The neighbouring-dataset harness for PATE (docs/privacy/testing.md): on every neighbour kind of both relations,
 * the teachers whose votes change and the vote histograms of every query, against {@link GnMax#sensitivity}. (The
 * released values are the noisy histograms' argmax: the histogram is the query the Gaussian noise is added to.)
 */
class PateNeighboursTest {
    static final int TEACHERS = 6;

    static int[][] votes(Neighbours.Labelled d, DenseMatrix queries) {
        ClassLabels y = new ClassLabels(d.y(), d.classNames());
        DenseMatrix x = d.matrix();
        return PateMethod.teacherVotes(x, y, TeacherPartition.members(TeacherPartition.assign(x, y, TEACHERS, 3), TEACHERS), queries,
                new MethodConfig("lr", 1e-3, 3L, Map.of()));
    }

    @Test
    void voteHistogramsOfNeighboursMoveByAtMostTheSensitivityUnderBothRelations() {
        Neighbours.Labelled base = Neighbours.random(90, 6, 4, 1.0, 12);
        DenseMatrix queries = Neighbours.random(25, 6, 4, 1.0, 13).matrix();
        int[][] v1 = votes(base, queries);
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            List<Neighbours.Pair> pairs = rel == NeighbouringRelation.REPLACE_ONE ? Neighbours.replaceOne(base, 1.0, 4)
                    : Neighbours.addRemove(base, 1.0, 4);
            for (Neighbours.Pair p : pairs) {
                int[][] v2 = votes(p.dPrime(), queries);
                int changed = 0;
                for (int t = 0; t < TEACHERS; t++) {
                    changed += Arrays.equals(v1[t], v2[t]) ? 0 : 1;
                }
                assertThat(changed).as("%s %s", rel, p).isLessThanOrEqualTo(rel == NeighbouringRelation.REPLACE_ONE ? 2 : 1);
                for (int q = 0; q < queries.rows(); q++) {
                    double[] h1 = toDouble(GnMax.histogram(PateMethodTest.column(v1, q), 4));
                    double[] h2 = toDouble(GnMax.histogram(PateMethodTest.column(v2, q), 4));
                    ReleaseComparison.assertWithin(ReleaseComparison.l2(h1, h2), GnMax.sensitivity(rel), 0, rel + " " + p + " query " + q);
                }
            }
        }
    }

    /**
     * The case the harness found (issue 14): replacing a record changes two teachers, and both can move their vote from
     * class a to class b. The histogram then moves by -2 e_a + 2 e_b, of L2 norm 2 sqrt 2: more than the 2 that was
     * declared before.
     */
    @Test
    void twoTeachersMovingTheSameVoteIsWithinTheReplaceOneSensitivity() {
        int[] before = {0, 0, 1, 2, 0, 1};
        int[] after = {1, 1, 1, 2, 0, 1}; // teachers 0 and 1 (the old and the new record's) switch from class 0 to 1
        double d = ReleaseComparison.l2(toDouble(GnMax.histogram(before, 3)), toDouble(GnMax.histogram(after, 3)));
        assertThat(d).isCloseTo(2 * Math.sqrt(2), org.assertj.core.api.Assertions.within(1e-12)).isGreaterThan(2.0);
        ReleaseComparison.assertWithin(d, GnMax.sensitivity(NeighbouringRelation.REPLACE_ONE), 0, "two votes a -> b");
    }

    static double[] toDouble(int[] a) {
        return Arrays.stream(a).asDoubleStream().toArray();
    }
}
