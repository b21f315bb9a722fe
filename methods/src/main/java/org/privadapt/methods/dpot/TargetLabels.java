package org.privadapt.methods.dpot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;

/**
 * The semi-supervised setting of paper 002 (and Courty et al. 2017): the target knows the labels of a few of its rows
 * (k per class, chosen at random with a seed). Those labels are the target's own; they are read from the task's
 * evaluation rows, which must be the target's rows themselves (as in the Office-Caltech10 protocol), and accuracy is
 * then measured on the other rows.
 *
 * @param codes per target row its class code (in the given class list) or -1
 * @param unlabelled the rows accuracy is measured on
 */
public record TargetLabels(int[] codes, int[] unlabelled) {

    public static TargetLabels none(int n) {
        int[] c = new int[n];
        Arrays.fill(c, -1);
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        return new TargetLabels(c, all);
    }

    public boolean any() {
        return Arrays.stream(codes).anyMatch(c -> c >= 0);
    }

    public static TargetLabels pick(AdaptationTask task, List<String> classes, int perClass, long seed) throws DataException {
        int n = task.target().size();
        if (perClass == 0) {
            return none(n);
        }
        if (task.evaluation().size() != n) {
            throw new DataException(task.evaluation().firstFile(), "rows", "the semi-supervised setting needs the evaluation rows to be "
                    + "the target's rows (" + org.privadapt.data.PrivateText.count(task.evaluation().size()) + " evaluation rows, " + org.privadapt.data.PrivateText.count(n) + " target rows)");
        }
        ClassLabels truth = Classifiers.truthFor(classes, task.evaluation());
        int[] codes = new int[n];
        Arrays.fill(codes, -1);
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Integer> rest = new ArrayList<>();
        for (int c = 0; c < classes.size(); c++) {
            List<Integer> rows = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (truth.code(i) == c) {
                    rows.add(i);
                }
            }
            for (int t = 0; t < perClass && !rows.isEmpty(); t++) {
                int i = rows.remove(rnd.nextInt(rows.size()));
                codes[i] = c;
            }
        }
        for (int i = 0; i < n; i++) {
            if (codes[i] < 0) {
                rest.add(i);
            }
        }
        return new TargetLabels(codes, rest.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The training set of the semi-supervised setting: the given rows plus the target's labelled rows (xt, by position). */
    public record TrainingSet(org.privadapt.math.DenseMatrix features, int[] labels) {
    }

    public TrainingSet withLabelledRows(org.privadapt.math.DenseMatrix x, int[] y, org.privadapt.math.DenseMatrix xt) {
        List<double[]> rows = new ArrayList<>();
        List<Integer> labels = new ArrayList<>();
        for (int i = 0; i < x.rows(); i++) {
            rows.add(x.row(i));
            labels.add(y[i]);
        }
        for (int i = 0; i < codes.length; i++) {
            if (codes[i] >= 0) {
                rows.add(xt.row(i));
                labels.add(codes[i]);
            }
        }
        return new TrainingSet(org.privadapt.math.DenseMatrix.fromRows(rows.toArray(new double[0][])),
                labels.stream().mapToInt(Integer::intValue).toArray());
    }
}
