package org.privadapt.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.prima.SourceModel;
import scala.Tuple3;

/**
 * {@code target predict --engine spark} (issue 45 item 4): a received PRIMA/PRISA model applied to the target's rows
 * where they are, a block at a time (each partition rebuilds the model from the artifact's bytes, as
 * {@link SparkEvaluation} does), the predictions and the rows' labels (if any) brought to the driver in the table's
 * order: the target's own predictions of its own rows, for the target, as in process (nothing is released).
 */
public final class SparkPredictions {
    private SparkPredictions() {
    }

    /** The predicted class index of every row, in the table's order, and each row's label (null when unlabelled). */
    public record Predicted(int[] classes, String[] labels) {
    }

    public static Predicted predict(SparkTable target, SourceModel model, String runId) {
        if (target.dimension() != model.dimension()) {
            throw new IllegalArgumentException("the target has " + target.dimension() + " features; the model is for " + model.dimension());
        }
        byte[] artifact = model.toArtifact(runId).toBytes();
        int d = target.dimension();
        int block = Math.min(SparkEvaluation.BLOCK, RowAggregation.blockRows(d)); // wide rows: fewer per block
        boolean labelled = target.labelled();
        SparkVectors.Kind kind = SparkVectors.kind(target);
        List<Tuple3<Integer, int[], String[]>> parts = new ArrayList<>(InternalRows.of(target).mapPartitionsWithIndex(
                (Integer index, Iterator<InternalRow> it) -> {
                    SourceModel m;
                    try {
                        m = SourceModel.fromArtifact(Artifact.parse("model", artifact, "model"), "model");
                    } catch (ArtifactException e) {
                        throw new IllegalStateException("the model's artifact did not parse on an executor: " + e.getMessage(), e);
                    }
                    List<Integer> pred = new ArrayList<>();
                    List<String> labels = new ArrayList<>();
                    List<double[]> rows = new ArrayList<>(block);
                    while (it.hasNext()) {
                        InternalRow r = it.next();
                        rows.add(SparkVectors.features(r, d, kind));
                        if (labelled) {
                            labels.add(InternalRows.label(r));
                        }
                        if (rows.size() == block || !it.hasNext()) {
                            for (int p : m.predict(DenseMatrix.fromRows(rows.toArray(new double[0][])))) {
                                pred.add(p);
                            }
                            rows.clear();
                        }
                    }
                    List<Tuple3<Integer, int[], String[]>> one = new ArrayList<>(1);
                    one.add(new Tuple3<>(index, pred.stream().mapToInt(Integer::intValue).toArray(),
                            labelled ? labels.toArray(new String[0]) : null));
                    return one.iterator();
                }, false).collect());
        parts.sort(Comparator.comparing(Tuple3::_1));
        int n = parts.stream().mapToInt(p -> p._2().length).sum();
        int[] classes = new int[n];
        String[] labels = labelled ? new String[n] : null;
        int at = 0;
        for (Tuple3<Integer, int[], String[]> p : parts) {
            System.arraycopy(p._2(), 0, classes, at, p._2().length);
            if (labelled) {
                System.arraycopy(p._3(), 0, labels, at, p._2().length);
            }
            at += p._2().length;
        }
        return new Predicted(classes, labels);
    }
}
