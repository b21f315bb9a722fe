package org.privadapt.examples;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.sparkml.PrimaSourceClassifier;
import org.privadapt.sparkml.PrimaSourceTrainer;
import org.privadapt.sparkml.PrimaTargetRelease;
import org.privadapt.sparkml.PrimaTargetReleaseModel;

/**
 * privadapt's Spark ML stages in two {@code Pipeline}s on a local[2] master (docs/spark.md, "Spark ML pipeline
 * stages"): the target's {@code VectorAssembler -> PrimaTargetRelease} fits its DP release (charged to its ledger), the
 * source's {@code VectorAssembler -> PrimaSourceTrainer} fits its DP model on that release (charged to its own ledger);
 * the source's pipeline model is saved, loaded and predicts the target's rows. Secure noise (no seed). Run:
 * {@code SparkMlPipeline DIR} (DIR receives the ledgers, the release and the saved pipeline).
 */
public final class SparkMlPipeline {
    static final String[] CLASSES = {"a", "b", "c"};
    static final int D = 6;

    private SparkMlPipeline() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "pipeline-example"));
        SparkSession spark = SparkSession.builder().master("local[2]").appName("privadapt-pipeline-example")
                .config("spark.ui.enabled", "false") // a job over private rows opens no port
                .config("spark.sql.codegen.wholeStage", "false").config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
                .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        try {
            run(spark, dir);
        } finally {
            spark.stop();
        }
    }

    static void run(SparkSession spark, Path dir) throws Exception {
        Dataset<Row> source = rows(spark, 600, 1, 0.0);
        Dataset<Row> target = rows(spark, 400, 2, 0.5);
        String[] columns = new String[D];
        for (int j = 0; j < D; j++) {
            columns[j] = "f" + j;
        }
        VectorAssembler assembler = new VectorAssembler().setInputCols(columns).setOutputCol("features");

        // the target: its PRIMA release (DP, add/remove neighbours), charged to its ledger; the release goes to the source
        Path targetLedger = dir.resolve("target.ledger");
        PipelineModel targetSide = new Pipeline().setStages(new PipelineStage[] {assembler,
                new PrimaTargetRelease().setEpsilon(2.0).setLedgerPath(targetLedger.toString())}).fit(target);
        Path release = dir.resolve("release.json");
        ((PrimaTargetReleaseModel) targetSide.stages()[1]).writeArtifact(release);

        // the source: its DP model (learner ncm: noisy class sums) on the release, charged to its ledger
        Path sourceLedger = dir.resolve("source.ledger");
        PipelineModel sourceSide = new Pipeline().setStages(new PipelineStage[] {assembler,
                new PrimaSourceTrainer().setReleasePath(release.toString()).setClasses(CLASSES).setLabelCol("y").setLearner("ncm")
                        .setEpsilon(2.0).setLedgerPath(sourceLedger.toString())}).fit(source);

        // saved and loaded as any Spark ML pipeline; the model's artifact keeps its privacy block
        String saved = dir.resolve("source-pipeline").toString();
        sourceSide.write().overwrite().save(saved);
        PipelineModel loaded = PipelineModel.load(saved);
        PrimaSourceClassifier model = (PrimaSourceClassifier) loaded.stages()[1];
        List<Row> predicted = loaded.transform(target).select("y", "prediction").collectAsList();
        long correct = predicted.stream().filter(r -> CLASSES[(int) r.getDouble(1)].equals(r.getString(0))).count();
        System.out.printf(Locale.ROOT, "target accuracy %.1f %% (%d rows, predicted by the loaded pipeline)%n",
                100.0 * correct / predicted.size(), predicted.size());
        System.out.printf(Locale.ROOT, "model privacy block: %s%n", model.artifact().privacy().path("private").asBoolean()
                ? "differentially private" : "NOT private");
        for (Path ledger : List.of(targetLedger, sourceLedger)) {
            BudgetLedger.Snapshot s = BudgetLedger.open(ledger).read();
            System.out.printf(Locale.ROOT, "%s: spent epsilon %.4f of %.1f in %d release(s)%n", ledger.getFileName(),
                    s.epsilonSpent(), s.budget().epsilon(), s.entries().size());
        }
    }

    /** n rows of D features in three classes (class c shifts every third feature), {@code shift} added to all. */
    static Dataset<Row> rows(SparkSession spark, int n, long seed, double shift) {
        SplittableRandom r = new SplittableRandom(seed);
        List<StructField> fields = new ArrayList<>();
        for (int j = 0; j < D; j++) {
            fields.add(DataTypes.createStructField("f" + j, DataTypes.DoubleType, false));
        }
        fields.add(DataTypes.createStructField("y", DataTypes.StringType, false));
        List<Row> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(3);
            Object[] v = new Object[D + 1];
            for (int j = 0; j < D; j++) {
                v[j] = Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble())
                        + (j % 3 == c ? 2.0 : 0) + shift;
            }
            v[D] = CLASSES[c];
            list.add(RowFactory.create(v));
        }
        return spark.createDataFrame(list, DataTypes.createStructType(fields));
    }
}
