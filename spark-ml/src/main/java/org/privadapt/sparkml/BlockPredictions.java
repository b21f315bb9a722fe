package org.privadapt.sparkml;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.privadapt.math.DenseMatrix;

/**
 * A predicting model stage's {@code transform}: the rows with one double column added, each partition's rows predicted
 * a block at a time on the executor by a predictor the partition rebuilds there (from the artifact's bytes, as the spark
 * module's predictions do), a row with a missing or non-finite value (or of another length) predicted NaN. Predicting
 * is post-processing of a DP model and charges nothing.
 */
final class BlockPredictions {
    /** Rows per block predicted at once on an executor. */
    static final int BLOCK = 1024;

    private BlockPredictions() {
    }

    /** A block's predictions, one per row of {@code rows} (d columns, every value finite). */
    interface Predictor {
        double[] predict(DenseMatrix rows);
    }

    /** Makes a partition's predictor, on the executor (what it captures is sent with the task). */
    interface Factory extends Serializable {
        Predictor create();
    }

    /** The input schema with {@code predictionCol} added, the features column checked. */
    static StructType schema(StructType schema, String featuresCol, String predictionCol) {
        FeatureColumns.requireFeatures(schema, featuresCol);
        return schema.add(predictionCol, DataTypes.DoubleType, false);
    }

    /** The rows with their predictions added as {@code predictionCol}. */
    static Dataset<Row> transform(Dataset<?> dataset, String featuresCol, String predictionCol, int d, Factory factory) {
        Dataset<Row> df = dataset.toDF();
        StructType out = schema(df.schema(), featuresCol, predictionCol);
        int at = df.schema().fieldIndex(featuresCol);
        MapPartitionsFunction<Row, Row> f = it -> predicted(it, factory.create(), at, d);
        return df.mapPartitions(f, Encoders.row(out));
    }

    /** A partition's rows with their predictions, a block at a time. */
    private static Iterator<Row> predicted(Iterator<Row> it, Predictor p, int at, int d) {
        List<Row> result = new ArrayList<>();
        List<Row> block = new ArrayList<>(BLOCK);
        while (it.hasNext()) {
            block.add(it.next());
            if (block.size() == BLOCK || !it.hasNext()) {
                double[] y = predictBlock(block, p, at, d);
                for (int i = 0; i < block.size(); i++) {
                    Row r = block.get(i);
                    Object[] v = new Object[r.length() + 1];
                    for (int j = 0; j < r.length(); j++) {
                        v[j] = r.get(j);
                    }
                    v[r.length()] = y[i];
                    result.add(RowFactory.create(v));
                }
                block.clear();
            }
        }
        return result.iterator();
    }

    private static double[] predictBlock(List<Row> block, Predictor p, int at, int d) {
        double[] y = new double[block.size()];
        Arrays.fill(y, Double.NaN);
        List<double[]> rows = new ArrayList<>();
        List<Integer> where = new ArrayList<>();
        for (int i = 0; i < block.size(); i++) {
            double[] x = FeatureColumns.values(block.get(i).get(at), d);
            if (Arrays.stream(x).allMatch(Double::isFinite)) {
                rows.add(x);
                where.add(i);
            }
        }
        if (rows.isEmpty()) {
            return y;
        }
        double[] got = p.predict(DenseMatrix.fromRows(rows.toArray(new double[0][])));
        for (int k = 0; k < got.length; k++) {
            y[where.get(k)] = got[k];
        }
        return y;
    }
}
